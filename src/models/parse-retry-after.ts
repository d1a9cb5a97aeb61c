/** Read-only view of response headers (the Fetch `Headers` class fits). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * How long the server asked the client to wait, in milliseconds, from `retry-after-ms`
 * (milliseconds), else `retry-after` (seconds or an HTTP date). `undefined` when neither is
 * present or parsable. `now` is the current time in epoch milliseconds (defaults to `Date.now()`).
 */
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = parseNonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^[+-]?\d/.test(value)) {
    const seconds = parseNonNegativeNumber(value);
    return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
  }
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
