import type { CompiledRuleSet } from '../compiled-rule-set';
import type { GraphDraw } from '../kinds/graph-draw';
import { ruleKindModule } from '../kinds/registered-rule-kinds';

export { endNode, startNode } from '../kinds/graph-draw';

/** One labelled edge between two tools (or a pseudo-node). */
export interface RuleGraphEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  /** Dashed in drawings: the edge forbids or ends rather than leads on. */
  readonly dashed: boolean;
}

/** Tools as nodes (with notes such as `max 2/run`), rules as labelled edges. */
export interface RuleGraph {
  readonly nodes: { name: string; notes: string[] }[];
  readonly edges: RuleGraphEdge[];
}

/**
 * Builds the graph of a rule set, each rule drawn by its kind: requires, forbids, child, parent,
 * conditional (with output keys), sequence order, preconditions, init and terminal edges, notes.
 */
export function ruleGraph(rules: CompiledRuleSet): RuleGraph {
  const edges: RuleGraphEdge[] = [];
  const notes = new Map<string, string[]>();
  const note = (tool: string, text?: string): void => {
    const list = notes.get(tool) ?? [];
    if (text !== undefined && !list.includes(text)) list.push(text);
    notes.set(tool, list);
  };
  const counts = new Map<string, number>();
  for (const rule of rules.rules) {
    if ('tool' in rule) note(rule.tool);
    const nthOfKind = (counts.get(rule.kind) ?? 0) + 1;
    counts.set(rule.kind, nthOfKind);
    const draw: GraphDraw = {
      edge: (from, to, label, dashed = false) => edges.push({ from, to, label, dashed }),
      note,
      nthOfKind,
    };
    ruleKindModule(rule.kind)?.graph(rule, draw);
  }
  for (const edge of edges) {
    note(edge.from);
    note(edge.to);
  }
  const nodes = [...notes]
    .map(([name, list]) => ({ name, notes: list }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { nodes, edges };
}
