/**
 * How activity inputs and results travel through history packed: a field at its usual value is
 * left out, and its reader fills it back in. `usual` holds the values the reader assumes; a value
 * in its full form (as earlier versions wrote it) unpacks to itself.
 */

/** `value` without the fields whose value equals `usual`'s (compared as JSON): the others are kept. */
export function withoutUsual<T extends object, U extends Partial<T>>(
  value: T,
  usual: U,
): Omit<T, keyof U> & Partial<T> {
  const packed: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (!(key in usual) || !sameJson(value[key], usual[key])) packed[key] = value[key];
  }
  return packed as Omit<T, keyof U> & Partial<T>;
}

/** `packed` with the fields it lacks taken from `usual`. */
export function withUsual<T extends object>(packed: Partial<T>, usual: Partial<T>): T {
  return { ...usual, ...packed } as T;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
