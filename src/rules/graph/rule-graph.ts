import type { CompiledRuleSet } from '../compiled-rule-set';
import { positionTools } from '../engine/rule-index';
import { describeOutputCondition } from '../engine/output-conditions';

/** The start and end of a run, as pseudo-nodes. */
export const startNode = '(start)';
export const endNode = '(end)';

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

function sequenceEdges(
  positions: readonly (string | readonly string[])[],
  label: string,
  edges: RuleGraphEdge[],
): void {
  for (let p = 1; p < positions.length; p++) {
    for (const from of positionTools(positions[p - 1] ?? [])) {
      for (const to of positionTools(positions[p] ?? []))
        edges.push({ from, to, label: `${label} ${p}→${p + 1}`, dashed: false });
    }
  }
}

/** Builds the graph of a rule set: requires, forbids, child, parent, conditional (with output keys), sequence order. */
export function ruleGraph(rules: CompiledRuleSet): RuleGraph {
  const edges: RuleGraphEdge[] = [];
  const notes = new Map<string, string[]>();
  const note = (tool: string, text?: string): void => {
    const list = notes.get(tool) ?? [];
    if (text !== undefined && !list.includes(text)) list.push(text);
    notes.set(tool, list);
  };
  let sequenceNumber = 0;
  for (const rule of rules.rules) {
    if ('tool' in rule) note(rule.tool);
    switch (rule.kind) {
      case 'requires':
        for (const after of rule.after) {
          const label = `requires${rule.mode === 'any' ? ' (any)' : ''}${rule.scope === 'run' ? ' in run' : ''}`;
          edges.push({ from: after, to: rule.tool, label, dashed: false });
        }
        break;
      case 'forbids_after':
        for (const forbidden of rule.forbids)
          edges.push({ from: rule.tool, to: forbidden, label: 'forbids', dashed: true });
        break;
      case 'child':
      case 'parent':
        for (const child of rule.children) edges.push({ from: rule.tool, to: child, label: rule.kind, dashed: false });
        break;
      case 'conditional': {
        const on = rule.path ?? 'output';
        for (const entry of rule.mapping)
          edges.push({ from: rule.tool, to: entry.child, label: `${on} = ${entry.when}`, dashed: false });
        if (rule.default_child !== undefined)
          edges.push({ from: rule.tool, to: rule.default_child, label: 'default', dashed: false });
        if (rule.strict) note(rule.tool, 'strict mapping');
        break;
      }
      case 'precondition': {
        if (rule.requires_prior_tool === undefined) break;
        const parts = (rule.with_output ?? []).map((condition) => describeOutputCondition(condition));
        if (rule.resource) parts.push(`same ${rule.resource.path}`);
        const label = parts.length > 0 ? `precondition: ${parts.join(', ')}` : 'precondition';
        edges.push({ from: rule.requires_prior_tool, to: rule.tool, label, dashed: false });
        if (rule.requires_step_count) note(rule.tool, `after ${rule.requires_step_count.gte} turns`);
        break;
      }
      case 'sequence':
        sequenceNumber += 1;
        for (const position of rule.positions) for (const tool of positionTools(position)) note(tool);
        sequenceEdges(rule.positions, `sequence ${sequenceNumber}`, edges);
        break;
      case 'step':
        for (const position of rule.sequence ?? []) for (const tool of positionTools(position)) note(tool);
        sequenceEdges(rule.sequence ?? [], `step ${rule.name}`, edges);
        break;
      case 'init':
        edges.push({ from: startNode, to: rule.tool, label: 'init', dashed: false });
        break;
      case 'terminal':
        edges.push({ from: rule.tool, to: endNode, label: 'terminal', dashed: false });
        break;
      case 'required_before_exit':
        edges.push({ from: rule.tool, to: endNode, label: 'required before exit', dashed: true });
        break;
      case 'max_count':
        note(rule.tool, `max ${rule.limit}/${rule.scope}`);
        break;
      case 'continue':
        note(rule.tool, 'continue');
        break;
      case 'requires_approval':
        note(rule.tool, 'needs approval');
        break;
      case 'default':
        break;
    }
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
