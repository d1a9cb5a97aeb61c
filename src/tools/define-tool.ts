import type { z } from 'zod';
import { ConcurrencyClass } from '../dispatch';
import { checkToolDefinition } from './check-tool-definition';
import { describeError } from './describe-error';
import { ToolDefinitionError } from './errors/tool-definition-error';
import { judgeCall } from './judge-call';
import { SchemaFlatteningError } from './schema/schema-flattening-error';
import { toPortableJsonSchema } from './schema/to-portable-json-schema';
import { toStrictJsonSchema } from './schema/to-strict-json-schema';
import type { Tool, ToolCallTraits } from './tool';
import { AT_MOST_ONCE, DEFAULT_MAX_RESULT_SIZE_CHARS, DEFAULT_TOOL_TIMEOUT_MS } from '../dispatch';
import type { ToolDefinition } from './tool-definition';
import type { InputValidation, PermissionDecision } from './tool-verdicts';

/**
 * Builds a tool from its definition: checks it, computes its portable JSON Schema (refusing recursive
 * or non-object schemas now rather than at the first call), and fills every omitted flag with its
 * fail-closed default. `execute`'s input type is inferred from `inputSchema`.
 *
 * @throws ToolDefinitionError when the definition could never be dispatched safely.
 */
export function defineTool<SCHEMA extends z.ZodType, OUTPUT>(
  definition: ToolDefinition<SCHEMA, OUTPUT>,
): Tool<z.output<SCHEMA>, Awaited<OUTPUT>> {
  checkToolDefinition(definition);
  type INPUT = z.output<SCHEMA>;
  const { name } = definition;
  const inputJsonSchema = buildJsonSchema(name, definition.inputSchema);
  const readOnlyClass = definition.concurrency === ConcurrencyClass.READ_ONLY;
  const requiresPermission = definition.requiresPermission ?? !readOnlyClass;

  const classify = (input: INPUT): ToolCallTraits => {
    const readOnly = judgeCall(definition.isReadOnly, input, { fallback: readOnlyClass, unsafe: false });
    const destructive = judgeCall(definition.isDestructive, input, { fallback: !readOnlyClass, unsafe: true });
    const openWorld = judgeCall(definition.isOpenWorld, input, { fallback: true, unsafe: true });
    // The READ_ONLY class vouches for concurrency only of calls that really are read-only.
    const concurrencySafe = judgeCall(definition.isConcurrencySafe, input, {
      fallback: readOnlyClass && readOnly && !destructive,
      unsafe: false,
    });
    return { concurrencySafe, readOnly, destructive, openWorld };
  };

  const validateInput: Tool<INPUT>['validateInput'] = async (input, context) => {
    if (definition.validateInput === undefined) return { valid: true };
    try {
      return normaliseValidation(await definition.validateInput(input, context));
    } catch (error) {
      return { valid: false, message: `The input could not be validated: ${describeError(error)}` };
    }
  };

  const checkPermissions: Tool<INPUT>['checkPermissions'] = async (input, context) => {
    if (definition.checkPermissions === undefined) {
      return requiresPermission
        ? { behavior: 'ask', message: `${name} requires permission to run.` }
        : { behavior: 'allow' };
    }
    try {
      return normaliseDecision(await definition.checkPermissions(input, context), name);
    } catch (error) {
      return { behavior: 'deny', message: `The permission check of ${name} failed: ${describeError(error)}` };
    }
  };

  const { isEnabled } = definition;
  const retry = definition.retry;
  const tool: Tool<INPUT, Awaited<OUTPUT>> = {
    name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    inputJsonSchema,
    strictInputJsonSchema: toStrictJsonSchema(inputJsonSchema),
    aliases: Object.freeze([...(definition.aliases ?? [])]),
    concurrency: definition.concurrency ?? ConcurrencyClass.UNSAFE,
    requiresPermission,
    requiresUserInteraction: definition.requiresUserInteraction ?? false,
    interruptBehavior: definition.interruptBehavior ?? 'block',
    maxResultSizeChars: definition.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS,
    shouldDefer: definition.shouldDefer ?? false,
    alwaysLoad: definition.alwaysLoad ?? false,
    searchHint: definition.searchHint ?? '',
    origin: definition.origin ?? { kind: 'local' },
    timeoutMs: definition.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    heartbeatTimeoutMs: definition.heartbeatTimeoutMs ?? null,
    ...(definition.localActivity === true ? { localActivity: true } : {}),
    retry: retry === undefined ? null : { ...AT_MOST_ONCE, ...retry },
    isEnabled: () => {
      if (typeof isEnabled !== 'function') return isEnabled ?? true;
      try {
        return isEnabled() === true;
      } catch {
        return false;
      }
    },
    classify,
    validateInput,
    checkPermissions,
    execute: async (input, context): Promise<Awaited<OUTPUT>> => await definition.execute(input, context),
  };
  return Object.freeze(tool);
}

function buildJsonSchema(name: string, schema: z.ZodType) {
  try {
    return toPortableJsonSchema(schema);
  } catch (error) {
    if (SchemaFlatteningError.isInstance(error)) {
      throw new ToolDefinitionError({ toolName: name, problem: `its input schema is not portable: ${error.message}` });
    }
    throw error;
  }
}

function normaliseValidation(value: unknown): InputValidation {
  if (typeof value === 'object' && value !== null && 'valid' in value) {
    if (value.valid === true) return { valid: true };
    const message = 'message' in value && typeof value.message === 'string' ? value.message : 'The input is not valid.';
    return { valid: false, message };
  }
  return { valid: false, message: 'The input could not be validated (the check returned no verdict).' };
}

function normaliseDecision(value: unknown, name: string): PermissionDecision {
  const behavior = typeof value === 'object' && value !== null && 'behavior' in value ? value.behavior : undefined;
  const message =
    typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string'
      ? value.message
      : undefined;
  if (behavior === 'allow') return { behavior: 'allow' };
  if (behavior === 'ask') return message === undefined ? { behavior: 'ask' } : { behavior: 'ask', message };
  if (behavior === 'deny') return { behavior: 'deny', message: message ?? `Permission to use ${name} was denied.` };
  return { behavior: 'deny', message: `The permission check of ${name} returned no verdict.` };
}
