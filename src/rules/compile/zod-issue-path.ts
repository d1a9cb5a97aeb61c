/** A zod issue path as a suffix: `['after', 0]` → `.after[0]`. */
export function zodIssuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}
