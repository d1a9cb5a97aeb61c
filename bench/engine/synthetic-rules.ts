import type { CompiledRuleSet, RuleDocument } from '../../src/rules/index';
import { compileRuleSet, formatDiagnostic } from '../../src/rules/index';
import { seededRandom } from './seeded-random';

/** A synthetic catalog and rule set of the given size, with the mix of kinds a real agent tends to have. */
export function syntheticRules(
  toolCount: number,
  ruleCount: number,
  seed = 7,
): { rules: CompiledRuleSet; catalog: string[] } {
  const random = seededRandom(seed);
  const catalog = Array.from({ length: toolCount }, (_, i) => `tool_${i}`);
  const toolAt = (i: number) => catalog[i % toolCount] ?? 'tool_0';
  const any = () => Math.floor(random() * toolCount);
  /** A pair (earlier, later) with earlier < later, so prerequisites never form a cycle. */
  const ordered = (): [string, string] => {
    const a = any();
    const b = any();
    return a === b
      ? [toolAt(Math.max(0, a - 1)), toolAt(a === 0 ? 1 : a)]
      : [toolAt(Math.min(a, b)), toolAt(Math.max(a, b))];
  };
  const rules: Record<string, unknown>[] = [];
  const hasChildRule = new Set<string>();
  for (let r = 0; r < ruleCount; r++) {
    const roll = random();
    const [earlier, later] = ordered();
    if (earlier === later) continue;
    if (roll < 0.3) rules.push({ kind: 'requires', tool: later, after: [earlier] });
    else if (roll < 0.4) rules.push({ kind: 'forbids_after', tool: toolAt(toolCount - 1), forbids: [toolAt(any())] });
    else if (roll < 0.6)
      rules.push({ kind: 'max_count', tool: toolAt(any()), limit: 1 + Math.floor(random() * 50), scope: 'run' });
    else if (roll < 0.75) {
      rules.push({
        kind: 'precondition',
        tool: later,
        requires_prior_tool: earlier,
        with_output: [{ path: '$.ok', equals: true }],
        ...(random() < 0.5 ? { resource: { bind_from: 'arguments', path: '$.id' } } : {}),
      });
    } else if (roll < 0.8)
      rules.push({ kind: 'conditional', tool: earlier, mapping: [{ when: 'stop', child: later }] });
    else if (roll < 0.85 && !hasChildRule.has(earlier)) {
      hasChildRule.add(earlier);
      rules.push({ kind: 'child', tool: earlier, children: [later, toolAt(any())] });
    } else if (roll < 0.9) rules.push({ kind: 'continue', tool: toolAt(any()) });
    else rules.push({ kind: 'requires_approval', tool: toolAt(any()) });
  }
  const document: RuleDocument = {
    file: 'synthetic.yaml',
    format: 'toolrail',
    rules: rules.map((rule, index) => ({
      ...rule,
      source: { file: 'synthetic.yaml', index, path: `rules[${index}]` },
    })) as unknown as RuleDocument['rules'],
  };
  const result = compileRuleSet({ documents: [document], catalog });
  if (!result.ok) throw new Error(result.errors.slice(0, 3).map(formatDiagnostic).join('\n'));
  return { rules: result.rules, catalog };
}
