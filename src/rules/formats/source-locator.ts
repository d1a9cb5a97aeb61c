/** A path into a parsed file: object keys and array indices. */
export type ValuePath = readonly (string | number)[];

/**
 * What the file reader knows about positions: the 1-based line of a value, and the keys of an object
 * in file order (a JavaScript object puts integer-like keys first, which would reorder a mapping).
 */
export interface SourceLocator {
  lineOf(path: ValuePath): number | undefined;
  keysOf(path: ValuePath): readonly string[] | undefined;
}

/** One parsed file handed to an importer. */
export interface ParsedSource {
  readonly file: string;
  readonly value: unknown;
  readonly locator?: SourceLocator;
}

/** `['tool_rules', 3, 'children']` → `tool_rules[3].children`. */
export function pathText(path: ValuePath): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += /^[A-Za-z_$][\w$-]*$/.test(part) ? `${text ? '.' : ''}${part}` : `[${JSON.stringify(part)}]`;
  }
  return text;
}
