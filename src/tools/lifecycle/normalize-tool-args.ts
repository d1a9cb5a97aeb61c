import type { JsonObject } from '../../dispatch';
import type { ToolIssue } from '../../dispatch';
import { isJsonObject } from '../schema/is-json-object';
import { toJsonValue } from './to-json-value';

/** The arguments as a JSON object, or the issue that prevents it. */
export type NormalizedToolArgs =
  | { readonly success: true; readonly args: JsonObject; readonly issue?: never }
  | { readonly success: false; readonly args?: never; readonly issue: ToolIssue };

/**
 * Turns what a model sent as arguments into a JSON object: an object as is (converted to plain JSON),
 * a string parsed as JSON, and `''`, whitespace, `undefined` or `null` as `{}` (models send those for
 * tools without parameters). Anything else is an `invalid_json` or `invalid_type` issue.
 */
export function normalizeToolArgs(args: unknown): NormalizedToolArgs {
  if (args === undefined || args === null) return { success: true, args: {} };
  let value: unknown = args;
  if (typeof args === 'string') {
    if (args.trim() === '') return { success: true, args: {} };
    try {
      value = JSON.parse(args);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'unparsable';
      return {
        success: false,
        issue: { code: 'invalid_json', path: [], message: `The arguments are not valid JSON: ${reason}` },
      };
    }
  }
  const json = toJsonValue(value);
  if (!isJsonObject(json)) {
    return {
      success: false,
      issue: { code: 'invalid_type', path: [], message: 'The arguments must be a JSON object of named parameters.' },
    };
  }
  return { success: true, args: json };
}
