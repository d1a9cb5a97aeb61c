import type { RuleFormat } from '../rules/index';

/** Accepted values of a `--format` option naming a rules format. */
export const ruleFormatChoices = ['auto', 'toolrail', 'letta', 'agentdock', 'contracts', 'graph'] as const;

/** Reads a rules-format option value, or `null` when it is not one of {@link ruleFormatChoices}. */
export function parseRuleFormatOption(value: string | undefined): RuleFormat | 'auto' | null {
  const chosen = value ?? 'auto';
  return (ruleFormatChoices as readonly string[]).includes(chosen) ? (chosen as RuleFormat | 'auto') : null;
}
