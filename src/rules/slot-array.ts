/**
 * Per-tool numbers in the rule state, by slot, held in chunks of 32 so that changing one slot copies
 * one chunk and the list of chunks, not every slot: the cost of `record` stays flat with many tools.
 * Plain JSON (an array of arrays of numbers).
 */
export type SlotArray = readonly (readonly number[])[];

const chunkBits = 5;
const chunkSize = 1 << chunkBits;

/** A slot array of `length` zeros. */
export function slotZeros(length: number): SlotArray {
  const chunks: number[][] = [];
  for (let start = 0; start < length; start += chunkSize) {
    chunks.push(new Array<number>(Math.min(chunkSize, length - start)).fill(0));
  }
  return chunks;
}

/** The number at `slot` (0 when out of range). */
export function slotValue(values: SlotArray, slot: number): number {
  return values[slot >> chunkBits]?.[slot & (chunkSize - 1)] ?? 0;
}

/** A copy of `values` with `slot` set to `value` (the same object when nothing changes). */
export function slotWith(values: SlotArray, slot: number, value: number): SlotArray {
  const chunkIndex = slot >> chunkBits;
  const chunk = values[chunkIndex];
  if (chunk === undefined || chunk[slot & (chunkSize - 1)] === value) return values;
  const nextChunk = chunk.slice();
  nextChunk[slot & (chunkSize - 1)] = value;
  const next = values.slice();
  next[chunkIndex] = nextChunk;
  return next;
}
