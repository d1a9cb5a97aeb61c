import { asSchema } from 'ai';
import type { Tool as AiSdkTool, ToolApprovalStatus, ToolSet } from 'ai';
import { z } from 'zod';
import { ConcurrencyClass } from '../dispatch';
import { defineTool } from '../tools';
import type { AnyTool, PermissionDecision, ToolCallContext, ToolDefinition, ToolExecutionContext } from '../tools';
import { AiSdkToolInvalidError } from './errors/ai-sdk-tool-invalid-error';

/**
 * What toolrail knows of a tool and the AI SDK has no word for: every option of `defineTool` but the
 * name, description, schema and `execute` (which the AI SDK tool gives). Omitted ones take
 * `defineTool`'s fail-closed defaults (concurrency `UNSAFE`, destructive, permission required,
 * interrupts wait for the call).
 */
export type AiSdkToolMetadata = Omit<
  ToolDefinition<z.ZodType, unknown>,
  'name' | 'description' | 'inputSchema' | 'execute' | 'origin'
>;

/** One tool's approval in the AI SDK's terms: a status, or a function of the call's input that returns one. */
export type AiSdkToolApproval =
  | ToolApprovalStatus
  | ((
      input: unknown,
      options: { toolCallId: string; messages: []; toolContext: unknown; runtimeContext: Record<string, never> },
    ) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>);

/** Options of {@link defineAiSdkTools}. */
export interface DefineAiSdkToolsOptions {
  /** toolrail's metadata, by tool name. Default: none (the fail-closed defaults). */
  readonly metadata?: Readonly<Record<string, AiSdkToolMetadata>>;
  /**
   * The AI SDK's per-tool `toolApproval` settings, by tool name: `approved` runs, `denied` refuses,
   * `user-approval` asks a human, `not-applicable` falls back to the tool's `needsApproval`, then to
   * `metadata`. Default: none.
   */
  readonly toolApproval?: Readonly<Record<string, AiSdkToolApproval>>;
  /** What each tool's `execute` (and `description` function) gets as `context`, by tool name. Default: `{}`. */
  readonly toolsContext?: Readonly<Record<string, unknown>>;
}

type Execute = (input: unknown, options: Record<string, unknown>) => unknown;
type NeedsApproval = boolean | ((input: unknown, options: Record<string, unknown>) => boolean | PromiseLike<boolean>);

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  value != null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';

/**
 * The tool's input schema as zod: itself when it is a zod 4 schema, else built from its JSON Schema
 * and validated by it too.
 */
function zodInputSchema(name: string, schema: unknown): z.ZodType {
  if (schema == null) {
    throw new AiSdkToolInvalidError({
      toolName: name,
      problem: 'it has no inputSchema; give it one (a zod object, or jsonSchema({ type: "object", ... }))',
    });
  }
  if (typeof schema === 'object' && '_zod' in schema) return schema as z.ZodType;
  let converted: ReturnType<typeof asSchema>;
  let json: unknown;
  try {
    converted = asSchema(schema as Parameters<typeof asSchema>[0]);
    json = converted.jsonSchema;
  } catch (error) {
    throw new AiSdkToolInvalidError({ toolName: name, problem: 'its inputSchema has no JSON Schema', cause: error });
  }
  if (json === null || typeof json !== 'object' || typeof (json as { then?: unknown }).then === 'function') {
    throw new AiSdkToolInvalidError({
      toolName: name,
      problem: 'its inputSchema gives its JSON Schema later: give it as a value',
    });
  }
  let shape: z.ZodType;
  try {
    shape = z.fromJSONSchema(json as z.core.JSONSchema.JSONSchema);
  } catch (error) {
    throw new AiSdkToolInvalidError({ toolName: name, problem: 'its JSON Schema cannot be read', cause: error });
  }
  const { validate } = converted;
  if (validate === undefined) return shape;
  // The schema's own check (a Standard Schema, zod 3, a `validate` function) runs after the
  // shape's, and its value is the input.
  return shape.transform(async (value, context) => {
    const result = await validate(value);
    if (result.success) return result.value;
    context.addIssue({ code: 'custom', message: result.error.message, input: value });
    return z.NEVER;
  });
}

/** The tool's description: its text, or what its function says for the tool's context. */
function descriptionOf(name: string, tool: AiSdkTool, context: unknown): string {
  const description = (tool as { description?: unknown }).description;
  const text =
    typeof description === 'function'
      ? (description as (options: { context: unknown }) => unknown)({ context })
      : description;
  if (typeof text !== 'string' || text.trim() === '') {
    throw new AiSdkToolInvalidError({
      toolName: name,
      problem: 'it has no description; give it one: the model knows a tool only by its description',
    });
  }
  return text;
}

/** A status as a permission verdict; `undefined` when the status leaves the call to the next setting. */
function decisionOf(name: string, status: ToolApprovalStatus): PermissionDecision | undefined {
  const normalized = typeof status === 'string' ? { type: status } : status;
  if (normalized === undefined || normalized.type === 'not-applicable') return undefined;
  const reason = 'reason' in normalized && typeof normalized.reason === 'string' ? normalized.reason : undefined;
  if (normalized.type === 'approved') return { behavior: 'allow' };
  if (normalized.type === 'denied')
    return { behavior: 'deny', message: reason ?? `The toolApproval of ${name} denied this call.` };
  return { behavior: 'ask', message: reason ?? `${name} needs approval (its toolApproval).` };
}

/**
 * The permission check honouring the AI SDK's settings, in their order (`toolApproval`, then
 * `needsApproval`), then toolrail's (`metadata.checkPermissions`, `requiresPermission`, the default);
 * `undefined` when the tool has no AI SDK approval setting (toolrail's alone then apply).
 */
function permissionsOf(options: {
  name: string;
  approval: AiSdkToolApproval | undefined;
  needsApproval: NeedsApproval | undefined;
  metadata: AiSdkToolMetadata;
  context: unknown;
}): ToolDefinition<z.ZodType, unknown>['checkPermissions'] {
  const { name, approval, needsApproval, metadata, context } = options;
  if (approval === undefined && needsApproval === undefined) return undefined;
  const fallback = metadata.requiresPermission ?? metadata.concurrency !== ConcurrencyClass.READ_ONLY;
  return async (input: unknown, call: ToolCallContext): Promise<PermissionDecision> => {
    if (approval !== undefined) {
      const status =
        typeof approval === 'function'
          ? await approval(input, { toolCallId: call.callId, messages: [], toolContext: context, runtimeContext: {} })
          : approval;
      const decision = decisionOf(name, status);
      if (decision !== undefined) return decision;
    }
    if (needsApproval !== undefined) {
      const asks =
        typeof needsApproval === 'function'
          ? await needsApproval(input, { toolCallId: call.callId, messages: [], context })
          : needsApproval;
      return asks ? { behavior: 'ask', message: `${name} needs approval (its needsApproval).` } : { behavior: 'allow' };
    }
    if (metadata.checkPermissions !== undefined) return metadata.checkPermissions(input, call);
    return fallback ? { behavior: 'ask', message: `${name} requires permission to run.` } : { behavior: 'allow' };
  };
}

/**
 * Runs the AI SDK tool's `execute` in a session: the call's abort signal, its context; a streaming
 * tool's last value is the output.
 */
function executeOf(execute: Execute, context: unknown) {
  return async (input: unknown, call: ToolExecutionContext): Promise<unknown> => {
    const returned = execute(input, { toolCallId: call.callId, messages: [], abortSignal: call.signal, context });
    if (!isAsyncIterable(returned)) return await returned;
    let last: unknown;
    for await (const value of returned) {
      last = value;
      call.heartbeat();
    }
    return last;
  };
}

function defineOne(name: string, tool: AiSdkTool, options: DefineAiSdkToolsOptions): AnyTool {
  const fail = (problem: string): never => {
    throw new AiSdkToolInvalidError({ toolName: name, problem });
  };
  if (tool === null || typeof tool !== 'object') fail('it is not a tool object');
  if (tool.type === 'provider') fail(`it is a provider tool (${tool.id}): its provider runs it, a session cannot`);
  const execute = tool.execute as Execute | undefined;
  if (typeof execute !== 'function')
    fail('it has no execute function; a session runs its tools on the worker: give it one');
  const metadata = options.metadata?.[name] ?? {};
  const context = options.toolsContext?.[name] ?? {};
  const checkPermissions = permissionsOf({
    name,
    approval: options.toolApproval?.[name],
    needsApproval: tool.needsApproval as NeedsApproval | undefined,
    metadata,
    context,
  });
  return defineTool<z.ZodType, unknown>({
    ...metadata,
    name,
    description: descriptionOf(name, tool, context),
    inputSchema: zodInputSchema(name, tool.inputSchema),
    execute: executeOf(execute as Execute, context),
    ...(checkPermissions === undefined ? {} : { checkPermissions }),
  });
}

/**
 * The AI SDK's tools (`tool()`, `dynamicTool()`, keyed by name as in `generateText({ tools })`) as
 * toolrail tools for a worker: the key is the name; the description, the input schema (zod, or any
 * schema the AI SDK reads, as JSON Schema and its own check) and `execute` (with the call's abort
 * signal) are the tool's own. What the AI SDK has no word for comes from `metadata`, with
 * `defineTool`'s fail-closed defaults; the AI SDK's `toolApproval` and `needsApproval` settings
 * decide the calls' permission.
 *
 * @throws AiSdkToolInvalidError for a tool without a schema, description or `execute`, a provider tool, or
 * `metadata` / `toolApproval` / `toolsContext` naming a tool the set lacks.
 * @throws ToolDefinitionError when `defineTool` refuses the result (a bad name, a bad option).
 */
export function defineAiSdkTools(tools: ToolSet, options: DefineAiSdkToolsOptions = {}): AnyTool[] {
  for (const [option, byName] of Object.entries({
    metadata: options.metadata,
    toolApproval: options.toolApproval,
    toolsContext: options.toolsContext,
  })) {
    for (const name of Object.keys(byName ?? {})) {
      if (!Object.hasOwn(tools, name)) {
        throw new AiSdkToolInvalidError({
          toolName: name,
          problem: `${option} names it, but the tool set has no such tool`,
        });
      }
    }
  }
  return Object.entries(tools).map(([name, tool]) => defineOne(name, tool as AiSdkTool, options));
}
