import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { ParsedSource, RuleDiagnostic, SourceLocator, ValuePath } from '../rules/index';

/** Largest number of alias expansions a YAML document may need (the `yaml` parser's `maxAliasCount`). */
export const maxYamlAliasCount = 100;

/** The outcome of {@link parseSourceText}. */
export type ParseSourceResult = { ok: true; source: ParsedSource } | { ok: false; error: RuleDiagnostic };

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function nodeAt(root: unknown, path: ValuePath): { node: Node | null; depth: number } {
  let node = root as Node | null;
  let depth = 0;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === String(part));
      if (pair === undefined || pair.value === null) break;
      node = pair.value as Node;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part];
      if (item === undefined || item === null) break;
      node = item as Node;
    } else break;
    depth++;
  }
  return { node, depth };
}

function syntaxError(file: string, line: number | undefined, problem: string, fix: string): ParseSourceResult {
  return {
    ok: false,
    error: { severity: 'error', code: 'syntax', file, path: '', ...(line !== undefined ? { line } : {}), problem, fix },
  };
}

/**
 * Parses YAML or JSON text, keeping positions: the result's locator gives the line of any value and
 * the keys of any object in file order. A `.json` file must be strict JSON.
 */
export function parseSourceText(file: string, text: string): ParseSourceResult {
  const isJson = /\.json$/i.test(file);
  let jsonValue: unknown;
  if (isJson) {
    try {
      jsonValue = JSON.parse(text) as unknown;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const offset = /position (\d+)/.exec(message)?.[1];
      const yamlError = parseDocument(text, { lineCounter: new LineCounter() }).errors[0];
      const line =
        offset !== undefined
          ? text.slice(0, Number(offset)).split('\n').length
          : yamlError !== undefined
            ? text.slice(0, yamlError.pos[0]).split('\n').length
            : undefined;
      return syntaxError(file, line, `invalid JSON: ${message.split('\n')[0] ?? ''}`, 'fix the JSON syntax');
    }
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError !== undefined && !isJson) {
    const line = lineCounter.linePos(firstError.pos[0]).line;
    return syntaxError(file, line, `invalid YAML: ${firstError.message.split('\n')[0] ?? ''}`, 'fix the YAML syntax');
  }
  let value: unknown = jsonValue;
  if (!isJson) {
    try {
      value = document.toJS({ maxAliasCount: maxYamlAliasCount }) as unknown;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      // The parser refuses an alias bomb with this wording; anything else (an unresolved alias) is a plain mistake.
      if (!/excessive alias count/i.test(message))
        return syntaxError(file, undefined, `invalid YAML: ${message}`, 'fix the YAML syntax');
      return syntaxError(
        file,
        undefined,
        `invalid YAML: too many alias expansions (${message})`,
        'write the values out instead of nesting anchors and aliases (*name)',
      );
    }
  }
  if (firstError !== undefined) return { ok: true, source: { file, value } };
  const locator: SourceLocator = {
    lineOf(path) {
      const { node } = nodeAt(document.contents, path);
      const start = node?.range?.[0];
      return start === undefined ? undefined : lineCounter.linePos(start).line;
    },
    keysOf(path) {
      const { node, depth } = nodeAt(document.contents, path);
      if (depth !== path.length || !isMap(node)) return undefined;
      return node.items.map((item) => keyText(item.key));
    },
  };
  return { ok: true, source: { file, value, locator } };
}
