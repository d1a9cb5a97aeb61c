/** True when a name in a step's `allowed`/`denied` list is a glob (contains `*`). */
export function isToolPattern(name: string): boolean {
  return name.includes('*');
}

const cache = new Map<string, RegExp>();

/** Whether `tool` matches `pattern`: exact name, or a glob where `*` matches any run of characters. */
export function matchesToolPattern(pattern: string, tool: string): boolean {
  if (!isToolPattern(pattern)) return pattern === tool;
  let regex = cache.get(pattern);
  if (regex === undefined) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    regex = new RegExp(`^${source}$`);
    cache.set(pattern, regex);
  }
  return regex.test(tool);
}

/** Whether `tool` matches any name or glob of `list`. */
export function matchesAnyToolPattern(list: readonly string[], tool: string): boolean {
  for (const pattern of list) if (matchesToolPattern(pattern, tool)) return true;
  return false;
}
