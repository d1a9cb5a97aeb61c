import { RuleFormat } from '../rules/index';

/** Accepted values of a `--format` option naming a rules format: `auto`, then every format. */
export const ruleFormatChoices: readonly (RuleFormat | 'auto')[] = ['auto', ...Object.values(RuleFormat)];

/** Reads a rules-format option value, or `null` when it is not one of {@link ruleFormatChoices}. */
export function parseRuleFormatOption(value: string | undefined): RuleFormat | 'auto' | null {
  const chosen = value ?? 'auto';
  return ruleFormatChoices.find((choice) => choice === chosen) ?? null;
}
