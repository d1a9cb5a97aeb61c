import type { CompiledRuleSet } from '../compiled-rule-set';
import type { RuleGraph } from './rule-graph';
import { ruleGraph } from './rule-graph';

/** Output formats of `toolrail graph`. */
export type GraphFormat = 'dot' | 'mermaid';

function dotText(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function mermaidText(text: string): string {
  return text.replace(/"/g, '#quot;').replace(/\|/g, '#124;');
}

function labelOf(node: { name: string; notes: string[] }): string {
  return node.notes.length > 0 ? `${node.name}\n${node.notes.join(', ')}` : node.name;
}

function renderDot(graph: RuleGraph): string {
  const lines = ['digraph rules {', '  rankdir=LR;', '  node [shape=box, fontname="Helvetica"];'];
  for (const node of graph.nodes) {
    const shape = node.name.startsWith('(') ? ', shape=ellipse' : '';
    lines.push(`  ${dotText(node.name)} [label=${dotText(labelOf(node))}${shape}];`);
  }
  for (const edge of graph.edges) {
    lines.push(
      `  ${dotText(edge.from)} -> ${dotText(edge.to)} [label=${dotText(edge.label)}${edge.dashed ? ', style=dashed' : ''}];`,
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function renderMermaid(graph: RuleGraph): string {
  const ids = new Map(graph.nodes.map((node, i) => [node.name, `n${i}`]));
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const text = mermaidText(labelOf(node)).replace(/\n/g, '<br/>');
    lines.push(
      node.name.startsWith('(') ? `  ${ids.get(node.name)}(("${text}"))` : `  ${ids.get(node.name)}["${text}"]`,
    );
  }
  for (const edge of graph.edges) {
    const arrow = edge.dashed ? '-.->' : '-->';
    lines.push(`  ${ids.get(edge.from)} ${arrow}|"${mermaidText(edge.label)}"| ${ids.get(edge.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Each output format's renderer. */
const renderers: { readonly [F in GraphFormat]: (graph: RuleGraph) => string } = {
  dot: renderDot,
  mermaid: renderMermaid,
};

/** The rule graph as Graphviz DOT or a Mermaid flowchart: tools as nodes, rules as labelled edges. */
export function renderRuleGraph(rules: CompiledRuleSet, format: GraphFormat): string {
  return renderers[format](ruleGraph(rules));
}
