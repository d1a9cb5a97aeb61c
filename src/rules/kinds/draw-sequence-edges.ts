import { positionTools } from '../paths/position-tools';
import type { GraphDraw } from './graph-draw';

/** Edges from each position's tools to the next position's, labelled `LABEL 1→2`, `LABEL 2→3`, … */
export function drawSequenceEdges(
  positions: readonly (string | readonly string[])[],
  label: string,
  draw: GraphDraw,
): void {
  for (let p = 1; p < positions.length; p++) {
    for (const from of positionTools(positions[p - 1] ?? [])) {
      for (const to of positionTools(positions[p] ?? [])) draw.edge(from, to, `${label} ${p}→${p + 1}`);
    }
  }
}
