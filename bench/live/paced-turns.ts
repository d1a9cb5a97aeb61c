import type { PacedTurn } from '../../test/helpers/paced-model';

/** Piece `index` of a streamed text: a word that names itself, so a reader knows which piece it got. */
export function piece(index: number): string {
  return `w${index} `;
}

/** The indices of the pieces in `text`. */
export function piecesIn(text: string): number[] {
  return [...text.matchAll(/w(\d+) /g)].map((match) => Number(match[1]));
}

/** `turns` turns that each stream `pieces` pieces `gapMs` apart and call `work` (`toolMs`), then a streamed answer. */
export function pacedTurns({
  turns,
  pieces,
  gapMs,
  toolMs,
}: {
  turns: number;
  pieces: number;
  gapMs: number;
  toolMs: number;
}): PacedTurn[] {
  const text = Array.from({ length: pieces }, (_, index) => piece(index));
  return Array.from({ length: turns + 1 }, (_, turn) => ({
    pieces: text,
    gapMs,
    ...(turn < turns ? { call: { id: `call_${turn}`, name: 'work', args: { ms: toolMs } } } : {}),
  }));
}
