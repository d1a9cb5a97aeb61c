import { formatDiagnostic, renderRuleGraph } from '../../rules/index';
import { loadRuleSet } from '../../rules-files/index';
import { ruleFormatChoices } from '../../rules-files';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { parseCommandArgs } from '../parse-command-args';
import { readRulesOptions } from '../read-rules-options';
import { reportBadInput } from '../report-bad-input';

const usage = `Usage: toolrail graph --rules PATH [--rules PATH ...] --format dot|mermaid [--rules-format ${ruleFormatChoices.join('|')}]

Draws the rules: tools as nodes, rules as labelled edges (requires, forbids, child, parent,
conditional with its output keys, sequence order, init and terminal).
  --rules PATH          a rules file, or a directory of contract files (repeatable)
  --format F            dot (Graphviz) or mermaid
  --rules-format F      the format of every --rules (default auto)
Exit 0 with the drawing on stdout; 2 when the rules are invalid.`;

/** `toolrail graph`: the rules as a DOT or Mermaid graph. */
export const graphCommand: CliCommand = {
  summary: 'draw rules as a graph (Graphviz DOT or Mermaid)',
  async run(argv) {
    const parsed = parseCommandArgs(
      'graph',
      argv,
      {
        rules: { type: 'string', multiple: true },
        format: { type: 'string', default: 'dot' },
        'rules-format': { type: 'string', default: 'auto' },
      },
      usage,
      0,
      0,
    );
    if (!parsed.ok) return parsed.exitCode;
    const values = parsed.values;
    if (values.format !== 'dot' && values.format !== 'mermaid')
      return reportBadInput('toolrail graph: --format must be dot or mermaid');
    const rules = readRulesOptions('graph', values.rules, values['rules-format'], '--rules-format');
    if (!rules.ok) return rules.exitCode;
    const loaded = await loadRuleSet({ paths: rules.paths, format: rules.format });
    const first = loaded.ok ? undefined : loaded.errors[0];
    if (first !== undefined) return reportBadInput(formatDiagnostic(first));
    if (!loaded.ok) return ExitCode.badInput;
    process.stdout.write(renderRuleGraph(loaded.rules, values.format));
    return ExitCode.ok;
  },
};
