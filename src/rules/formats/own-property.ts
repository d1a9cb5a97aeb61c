/** The own property of an object, or `undefined` (safe for untrusted keys). */
export function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}
