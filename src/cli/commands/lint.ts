import { formatDiagnostic } from '../../rules/index';
import { loadRuleSet } from '../../rules-files/index';
import { ruleFormatChoices } from '../../rules-files';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { parseCommandArgs } from '../parse-command-args';
import { readRulesOptions } from '../read-rules-options';

const usage = `Usage: toolrail lint --rules PATH [--rules PATH ...] [--tools a,b,c] [--format ${ruleFormatChoices.join('|')}]

Runs every load-time check on rules files and contract directories, and prints each problem on one
line as FILE:PLACE: problem — fix. Warnings do not fail the check.
  --rules PATH   a rules file, or a directory of contract files (repeatable; the rule sets combine)
  --tools LIST   the catalog, comma-separated: every tool a rule names must be in it
  --format F     the format of every --rules (default auto: recognised by content)
Exit 0 when the rules are valid (warnings allowed); 2 when any error was found.`;

/** `toolrail lint`: the load-time checks of rules files. */
export const lintCommand: CliCommand = {
  summary: 'check rules files for errors (cycles, unknown tools, impossible rules) and warnings',
  async run(argv) {
    const parsed = parseCommandArgs(
      'lint',
      argv,
      {
        rules: { type: 'string', multiple: true },
        tools: { type: 'string' },
        format: { type: 'string', default: 'auto' },
      },
      usage,
      0,
      0,
    );
    if (!parsed.ok) return parsed.exitCode;
    const values = parsed.values;
    const rules = readRulesOptions('lint', values.rules, values.format);
    if (!rules.ok) return rules.exitCode;
    const catalog = values.tools
      ?.split(',')
      .map((tool) => tool.trim())
      .filter((tool) => tool !== '');
    const loaded = await loadRuleSet({
      paths: rules.paths,
      format: rules.format,
      ...(catalog !== undefined ? { catalog } : {}),
    });
    const errors = loaded.ok ? [] : loaded.errors;
    for (const diagnostic of [...errors, ...loaded.warnings]) process.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
    const warnings = `${loaded.warnings.length} warning${loaded.warnings.length === 1 ? '' : 's'}`;
    if (!loaded.ok) {
      process.stdout.write(`${errors.length} error${errors.length === 1 ? '' : 's'}, ${warnings}\n`);
      return ExitCode.badInput;
    }
    process.stdout.write(`ok: ${loaded.rules.rules.length} rules, ${warnings}\n`);
    return ExitCode.ok;
  },
};
