const imul = Math.imul;

/**
 * A content store's fingerprint: a 53-bit hash of its id in base 36 (at most 11 characters), what
 * the activities of a session are given to check that the worker's store is the session's. It
 * stands for the id (36 characters for the stores toolrail makes) in two inputs a turn. Two stores
 * share one by chance about once in 2^53. Pure: the workflow makes it.
 */
export function storeFingerprint(id: string): string {
  // cyrb53: two 32-bit multiply-xorshift lanes over the UTF-16 code units, mixed into 53 bits. The
  // lanes and constants are kept as 32-bit integers (`| 0`): with the constants as doubles the
  // engine runs this loop on doubles, some twenty times slower (about 13 µs an id, twice a turn).
  let first = 0xdeadbeef | 0;
  let second = 0x41c6ce57 | 0;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    first = imul(first ^ code, 2654435761 | 0);
    second = imul(second ^ code, 1597334677 | 0);
  }
  first = imul(first ^ (first >>> 16), 2246822507 | 0) ^ imul(second ^ (second >>> 13), 3266489909 | 0);
  second = imul(second ^ (second >>> 16), 2246822507 | 0) ^ imul(first ^ (first >>> 13), 3266489909 | 0);
  return (4294967296 * (2097151 & second) + (first >>> 0)).toString(36);
}
