/** Whether two JSON values are equal: objects field by field in any order, arrays item by item. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const aFields = Object.entries(a).filter(([, value]) => value !== undefined);
  const bFields = Object.entries(b).filter(([, value]) => value !== undefined);
  return (
    aFields.length === bFields.length &&
    aFields.every(([key, value]) => sameJson(value, (b as Record<string, unknown>)[key]))
  );
}

/** `value` without the fields whose value is the one `usual` gives them. */
export function withoutUsual<T extends object>(value: T, usual: Partial<T>): Partial<T> {
  const kept: Partial<T> = {};
  for (const [key, field] of Object.entries(value) as [keyof T, T[keyof T]][]) {
    if (field === undefined || (key in usual && sameJson(field, usual[key]))) continue;
    kept[key] = field;
  }
  return kept;
}

/** `compact` with each field it lacks taken from `usual`. */
export function withUsual<T extends object>(compact: Partial<T>, usual: Partial<T>): T {
  return { ...usual, ...withoutUndefined(compact) } as T;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
