import { formatDiagnostic, simulateTrace } from '../../rules/index';
import { loadRuleSet, loadTrace } from '../../rules-files/index';
import { ruleFormatChoices } from '../../rules-files';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { parseCommandArgs } from '../parse-command-args';
import { readRulesOptions } from '../read-rules-options';
import { reportBadInput } from '../report-bad-input';

const usage = `Usage: toolrail simulate --rules PATH [--rules PATH ...] --trace FILE [--format ${ruleFormatChoices.join('|')}]

Runs a recorded trace against rules, offline, with the same engine the session workflow runs.
Prints one JSON line per trace event: what was visible, which calls were allowed or blocked and why.
  --rules PATH   a rules file, or a directory of contract files (repeatable; the rule sets combine)
  --trace FILE   the trace, JSON or YAML: {"tools": [...], "events": [{"user"}|{"calls"}|{"text"}]}
  --format F     the format of every --rules (default auto: recognised by content)
Exit 0 when the trace was simulated; 2 when the rules or the trace are invalid.`;

/** `toolrail simulate`: rules against a recorded trace, offline. */
export const simulateCommand: CliCommand = {
  summary: 'check rules against a recorded trace, offline: what would be visible, allowed, blocked, and why',
  async run(argv) {
    const parsed = parseCommandArgs(
      'simulate',
      argv,
      {
        rules: { type: 'string', multiple: true },
        trace: { type: 'string' },
        format: { type: 'string', default: 'auto' },
      },
      usage,
      0,
      0,
    );
    if (!parsed.ok) return parsed.exitCode;
    const values = parsed.values;
    const rules = readRulesOptions('simulate', values.rules, values.format);
    if (!rules.ok) return rules.exitCode;
    if (!values.trace) return reportBadInput('toolrail simulate: give --trace FILE (see --help)');
    const trace = await loadTrace(values.trace);
    if (!trace.ok) return reportBadInput(formatDiagnostic(trace.error));
    const loaded = await loadRuleSet({ paths: rules.paths, format: rules.format, catalog: trace.trace.tools });
    const first = loaded.ok ? undefined : loaded.errors[0];
    if (first !== undefined) return reportBadInput(formatDiagnostic(first));
    if (!loaded.ok) return ExitCode.badInput;
    for (const warning of loaded.warnings) process.stderr.write(`${formatDiagnostic(warning)}\n`);
    const { lines } = simulateTrace(loaded.rules, trace.trace);
    process.stdout.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return ExitCode.ok;
  },
};
