/**
 * A content store's fingerprint: a 53-bit hash of its id in base 36 (at most 11 characters), what
 * the activities of a session are given to check that the worker's store is the session's. It
 * stands for the id (36 characters for the stores toolrail makes) in two inputs a turn. Two stores
 * share one by chance about once in 2^53. Pure: the workflow makes it.
 */
export function storeFingerprint(id: string): string {
  // cyrb53: two 32-bit multiply-xorshift lanes over the UTF-16 code units, mixed into 53 bits.
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return (4294967296 * (2097151 & second) + (first >>> 0)).toString(36);
}
