import type { JsonObject } from '../../dispatch';
import type { ToolIssue } from '../../dispatch';
import { dropNullOptionalProperties } from '../schema/drop-null-optional-properties';
import { isJsonObject } from '../schema/is-json-object';
import type { AnyTool } from '../tool';
import { describeError } from '../describe-error';
import { normalizeToolArgs } from './normalize-tool-args';

/** The schema phase's verdict: the normalised arguments and the parsed input, or the issues. */
export type ParsedToolArgs =
  | { readonly success: true; readonly args: JsonObject; readonly input: unknown; readonly issues?: never }
  | { readonly success: false; readonly args?: never; readonly input?: never; readonly issues: readonly ToolIssue[] };

/**
 * Phase 1, shape and types: normalises the arguments, drops `null`s sent for optional properties,
 * refuses top-level arguments the schema does not declare (when it forbids extra ones), then parses
 * with the tool's zod schema. Never throws.
 */
export async function parseToolArgs(tool: AnyTool, rawArgs: unknown): Promise<ParsedToolArgs> {
  const normalized = normalizeToolArgs(rawArgs);
  if (!normalized.success) return { success: false, issues: [normalized.issue] };
  const cleaned = dropNullOptionalProperties(normalized.args, tool.inputJsonSchema);
  const args = isJsonObject(cleaned) ? cleaned : normalized.args;
  const unknownKeys = findUnknownKeys(args, tool.inputJsonSchema);
  if (unknownKeys.length > 0) {
    const names = unknownKeys.map((key) => `"${key}"`).join(', ');
    return {
      success: false,
      issues: [
        {
          code: 'unrecognized_keys',
          path: [],
          message: `Unknown parameter(s) ${names}: this tool does not take them.`,
        },
      ],
    };
  }
  try {
    const result = await tool.inputSchema.safeParseAsync(args);
    if (result.success) return { success: true, args, input: result.data };
    return {
      success: false,
      issues: result.error.issues.map((issue) => ({
        code: issue.code,
        path: issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
        message: issue.message,
      })),
    };
  } catch (error) {
    return {
      success: false,
      issues: [{ code: 'custom', path: [], message: `The schema check failed: ${describeError(error)}` }],
    };
  }
}

function findUnknownKeys(args: JsonObject, schema: JsonObject): string[] {
  if (schema['additionalProperties'] !== false) return [];
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  return Object.keys(args).filter((key) => !Object.hasOwn(properties, key));
}
