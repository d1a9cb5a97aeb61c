import type { AnyCompiledRule } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor } from './diagnostic-for';

/** One prerequisite gate of a tool: it waits for all of `tools` (or any one, `any`). */
interface Gate {
  readonly tools: readonly string[];
  readonly any: boolean;
  readonly rule: AnyCompiledRule;
}

/** The prerequisite gates of each tool, as the kinds give them (`requires`, a precondition's prior tool). */
function prerequisiteGates(rules: readonly AnyCompiledRule[]): Map<string, Gate[]> {
  const gates = new Map<string, Gate[]>();
  for (const rule of rules) {
    for (const { tool, tools, any } of ruleKindModule(rule.kind)?.load.prerequisites?.(rule) ?? []) {
      const list = gates.get(tool) ?? [];
      list.push({ tools, any, rule });
      gates.set(tool, list);
    }
  }
  return gates;
}

/**
 * Refuses prerequisite cycles: tools whose `requires` / `requires_prior_tool` gates can never all be
 * met because they wait (directly or not) on each other. Each cycle is reported once, named in full.
 */
export function checkCycles(rules: readonly AnyCompiledRule[], out: RuleDiagnostic[]): void {
  const gates = prerequisiteGates(rules);
  const reachable = new Set<string>();
  const tools = new Set<string>(gates.keys());
  for (const list of gates.values()) for (const gate of list) for (const tool of gate.tools) tools.add(tool);
  for (const tool of tools) if (!gates.has(tool)) reachable.add(tool);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [tool, list] of gates) {
      if (reachable.has(tool)) continue;
      const met = list.every((gate) =>
        gate.any ? gate.tools.some((t) => reachable.has(t)) : reachable.has(gate.tools[0] ?? ''),
      );
      if (met) {
        reachable.add(tool);
        grew = true;
      }
    }
  }
  const reported = new Set<string>();
  for (const start of [...gates.keys()].sort()) {
    if (reachable.has(start) || reported.has(start)) continue;
    const path: string[] = [];
    const via: AnyCompiledRule[] = [];
    let current = start;
    while (!path.includes(current)) {
      path.push(current);
      const blocking = (gates.get(current) ?? []).find((gate) => gate.tools.every((t) => !reachable.has(t)));
      if (blocking === undefined) break;
      via.push(blocking.rule);
      current = blocking.tools.find((t) => !reachable.has(t)) ?? '';
    }
    const loopStart = path.indexOf(current);
    if (loopStart < 0 || reported.has(current)) continue;
    const cycle = [...path.slice(loopStart), current];
    for (const tool of cycle) reported.add(tool);
    const rule = via[loopStart] ?? via[0];
    if (rule === undefined) continue;
    out.push(
      diagnosticFor(
        rule,
        'error',
        'prerequisite-cycle',
        `prerequisite cycle: ${cycle.join(' requires ')}, so none of them can ever be called`,
        `remove one of these prerequisites (rules at ${[...new Set(via.slice(loopStart).map((r) => `${r.ref.file}:${r.ref.line ?? r.ref.path}`))].join(', ')})`,
      ),
    );
  }
}
