import type { RuleFormat } from '../rules';
import { parseRuleFormatOption, ruleFormatChoices } from '../rules-files';
import { reportBadInput } from './report-bad-input';

/** The rules a command was given, or the exit code of the usage error already reported. */
export type RulesOptions = { ok: true; paths: string[]; format: RuleFormat | 'auto' } | { ok: false; exitCode: number };

/**
 * Reads the `--rules PATH...` and rules-format options shared by `lint`, `simulate`, `graph` and
 * `start`: at least one path, and a known format (`auto` when not given).
 */
export function readRulesOptions(
  command: string,
  paths: readonly string[] | undefined,
  formatText: string | undefined,
  formatFlag = '--format',
): RulesOptions {
  const format = parseRuleFormatOption(formatText ?? 'auto');
  if (format === null) {
    return {
      ok: false,
      exitCode: reportBadInput(`toolrail ${command}: ${formatFlag} must be one of ${ruleFormatChoices.join(', ')}`),
    };
  }
  if (!paths || paths.length === 0) {
    return { ok: false, exitCode: reportBadInput(`toolrail ${command}: give at least one --rules PATH (see --help)`) };
  }
  return { ok: true, paths: [...paths], format };
}
