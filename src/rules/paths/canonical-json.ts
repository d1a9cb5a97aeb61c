/**
 * A stable text for a JSON value: object keys sorted, so equal values give equal text. Used to compare
 * bound resources and `equals` conditions. Values that JSON cannot hold become `null`.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const parts = keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${parts.join(',')}}`;
  }
  return 'null';
}

/** A short, one-line text of a value for messages: at most `max` characters (default 60). */
export function shortText(value: unknown, max = 60): string {
  const text =
    value === undefined ? 'nothing' : typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
