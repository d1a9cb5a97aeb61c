/** One step of a parsed JSONPath: an object key or an array index. */
export type JsonPathSegment = { readonly key: string } | { readonly index: number };

/** The outcome of {@link parseJsonPath}. */
export type ParsedJsonPath =
  { readonly ok: true; readonly segments: readonly JsonPathSegment[] } | { readonly ok: false; readonly error: string };

const dotKey = /^\.([A-Za-z_$][\w$-]*)/;
const bracketIndex = /^\[(\d+)\]/;
const bracketQuoted = /^\[(['"])((?:\\.|(?!\1).)*)\1\]/;

/**
 * Parses the JSONPath subset rules use: `$`, then any number of `.key`, `['key']`, `["key"]` and `[n]`.
 * A path without the leading `$` is read as if it had one (`eligible` is `$.eligible`).
 */
export function parseJsonPath(path: string): ParsedJsonPath {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  else if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) rest = `.${rest}`;
  const segments: JsonPathSegment[] = [];
  while (rest.length > 0) {
    const dot = dotKey.exec(rest);
    if (dot?.[1] !== undefined) {
      segments.push({ key: dot[1] });
      rest = rest.slice(dot[0].length);
      continue;
    }
    const index = bracketIndex.exec(rest);
    if (index?.[1] !== undefined) {
      segments.push({ index: Number(index[1]) });
      rest = rest.slice(index[0].length);
      continue;
    }
    const quoted = bracketQuoted.exec(rest);
    if (quoted?.[2] !== undefined) {
      segments.push({ key: quoted[2].replace(/\\(.)/g, '$1') });
      rest = rest.slice(quoted[0].length);
      continue;
    }
    return { ok: false, error: `cannot read "${rest}" in JSONPath "${path}"` };
  }
  return { ok: true, segments };
}

const cache = new Map<string, readonly JsonPathSegment[] | null>();

/** {@link parseJsonPath}, cached; `null` for an invalid path. */
export function jsonPathSegments(path: string): readonly JsonPathSegment[] | null {
  const known = cache.get(path);
  if (known !== undefined) return known;
  const parsed = parseJsonPath(path);
  const segments = parsed.ok ? parsed.segments : null;
  if (cache.size < 10_000) cache.set(path, segments);
  return segments;
}

/** The value at a JSONPath, or `found: false` when some step does not exist. Own properties only. */
export function resolveJsonPath(value: unknown, path: string): { found: boolean; value: unknown } {
  const segments = jsonPathSegments(path);
  if (segments === null) return { found: false, value: undefined };
  let current = value;
  for (const segment of segments) {
    if ('index' in segment) {
      if (!Array.isArray(current) || segment.index >= current.length) return { found: false, value: undefined };
      current = current[segment.index] as unknown;
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) {
        return { found: false, value: undefined };
      }
      if (!Object.hasOwn(current, segment.key)) return { found: false, value: undefined };
      current = (current as Record<string, unknown>)[segment.key];
    }
  }
  return { found: current !== undefined, value: current };
}
