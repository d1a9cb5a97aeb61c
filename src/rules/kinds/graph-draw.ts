/** The start of a run, as a pseudo-node of the rule graph. */
export const startNode = '(start)';

/** The end of a run, as a pseudo-node of the rule graph. */
export const endNode = '(end)';

/** What a kind draws a rule with: labelled edges between tools (or pseudo-nodes) and notes on tools. */
export interface GraphDraw {
  /** An edge; `dashed` for one that forbids or ends rather than leads on. */
  edge(from: string, to: string, label: string, dashed?: boolean): void;
  /** A note on a tool (such as `max 2/run`), or just the tool as a node. */
  note(tool: string, text?: string): void;
  /** 1 for the first rule of its kind in the set, 2 for the second, … */
  readonly nthOfKind: number;
}
