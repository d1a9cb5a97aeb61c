import { parseArgs } from 'node:util';
import { formatDiagnostic, renderRuleGraph } from '../../rules/index';
import { loadRuleSet } from '../../rules-files/index';
import { parseRuleFormatOption, ruleFormatChoices } from '../../rules-files/rule-format-option';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';

const usage = `Usage: toolrail graph --rules PATH [--rules PATH ...] --format dot|mermaid [--rules-format ${ruleFormatChoices.join('|')}]

Draws the rules: tools as nodes, rules as labelled edges (requires, forbids, child, parent,
conditional with its output keys, sequence order, init and terminal).
  --rules PATH          a rules file, or a directory of contract files (repeatable)
  --format F            dot (Graphviz) or mermaid
  --rules-format F      the format of every --rules (default auto)
Exit 0 with the drawing on stdout; 2 when the rules are invalid.`;

function fail(line: string): number {
  process.stderr.write(`${line}\n`);
  return ExitCode.badInput;
}

/** `toolrail graph`: the rules as a DOT or Mermaid graph. */
export const graphCommand: CliCommand = {
  summary: 'draw rules as a graph (Graphviz DOT or Mermaid)',
  async run(argv) {
    let values;
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: {
          rules: { type: 'string', multiple: true },
          format: { type: 'string', default: 'dot' },
          'rules-format': { type: 'string', default: 'auto' },
          help: { type: 'boolean', short: 'h', default: false },
        },
      }));
    } catch (error) {
      return fail(`toolrail graph: ${error instanceof Error ? error.message : String(error)} (see --help)`);
    }
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      return ExitCode.ok;
    }
    if (values.format !== 'dot' && values.format !== 'mermaid')
      return fail('toolrail graph: --format must be dot or mermaid');
    const format = parseRuleFormatOption(values['rules-format']);
    if (format === null) return fail(`toolrail graph: --rules-format must be one of ${ruleFormatChoices.join(', ')}`);
    if (!values.rules || values.rules.length === 0)
      return fail('toolrail graph: give at least one --rules PATH (see --help)');
    const loaded = await loadRuleSet({ paths: values.rules, format });
    const first = loaded.ok ? undefined : loaded.errors[0];
    if (first !== undefined) return fail(formatDiagnostic(first));
    if (!loaded.ok) return ExitCode.badInput;
    process.stdout.write(renderRuleGraph(loaded.rules, values.format));
    return ExitCode.ok;
  },
};
