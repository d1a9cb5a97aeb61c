import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { PermissionBehavior, PreparedCall, ToolCatalog, ToolIssue, ToolErrorOutcome } from '../../dispatch';
import { TOOL_SEARCH_NAME } from '../../dispatch';
import { buildToolCatalog } from '../catalog/build-tool-catalog';
import { unavailableReasonOf } from '../catalog/to-catalog-tool';
import { describeError } from '../describe-error';
import type { AnyTool } from '../tool';
import type { ToolCallContext } from '../tool-context';
import type { ToolRegistry } from '../tool-registry';
import { parseToolArgs } from './parse-tool-args';
import type { ProposedToolCall } from '../../models';
import { resolveExecutionOptions } from './resolve-execution-options';
import { toJsonValue } from './to-json-value';
import type { ToolSessionContext } from './tool-session-context';

/** Options of {@link prepareToolCall}. */
export interface PrepareToolCallOptions {
  readonly registry: ToolRegistry;
  readonly call: ProposedToolCall;
  readonly context: ToolSessionContext;
  /** This turn's catalog; when given, a tool outside it is refused. Default: every enabled tool. */
  readonly catalog?: ToolCatalog;
}

/** Most tool names listed in an `UNKNOWN_TOOL` message. */
const MAX_LISTED_TOOLS = 40;

/**
 * The first half of the lifecycle, before any human is asked: resolve the name (aliases included),
 * refuse a tool that cannot run now (`TOOL_UNAVAILABLE`: its MCP server is down), phase 1 schema
 * validation (`INPUT_VALIDATION_ERROR`, with zod's issues), classification, the
 * interaction check (`USER_INTERACTION_REQUIRED`), phase 2 `validateInput` (`VALIDATION_ERROR`) and
 * phase 3 permission (a non-interactive session turns `ask` into `deny`). Returns the prepared call,
 * or the error outcome of the first phase that failed. Never throws.
 */
export async function prepareToolCall(options: PrepareToolCallOptions): Promise<PreparedCall | ToolErrorOutcome> {
  try {
    return await prepareOrRefuse(options);
  } catch (error) {
    // Only a hand-built tool that bypassed defineTool's wrappers can get here; refuse, do not crash.
    return createToolErrorOutcome({
      callId: options.call.id,
      toolName: String(options.call.name),
      code: ToolErrorCode.VALIDATION_ERROR,
      message: `The call could not be checked: ${describeError(error)}`,
    });
  }
}

async function prepareOrRefuse({
  registry,
  call,
  context,
  catalog,
}: PrepareToolCallOptions): Promise<PreparedCall | ToolErrorOutcome> {
  const fail = (toolName: string, code: ToolErrorCode, message: string, issues?: readonly ToolIssue[]) =>
    createToolErrorOutcome({ callId: call.id, toolName, code, message, issues });

  const resolved = typeof call.name === 'string' ? registry.resolve(call.name) : undefined;
  const unavailable = resolved === undefined ? undefined : whyUnavailable(resolved.tool, catalog);
  if (resolved === undefined || unavailable === 'unknown') {
    const known = (catalog ?? buildToolCatalog({ registry })).tools.map((tool) => tool.name);
    const listed = known.slice(0, MAX_LISTED_TOOLS).join(', ') + (known.length > MAX_LISTED_TOOLS ? ', …' : '');
    return fail(
      String(call.name),
      ToolErrorCode.UNKNOWN_TOOL,
      `No tool named "${String(call.name)}" is available. Available tools: ${listed}.`,
    );
  }
  const { tool } = resolved;
  if (unavailable === 'not-loaded') {
    return fail(
      tool.name,
      ToolErrorCode.TOOL_NOT_LOADED,
      `${tool.name} is not loaded yet. Call ${TOOL_SEARCH_NAME} with query "select:${tool.name}" first; it becomes callable on the next turn.`,
    );
  }
  const down = unavailableReasonOf(tool);
  if (down !== undefined)
    return fail(tool.name, ToolErrorCode.TOOL_UNAVAILABLE, `${tool.name} is unavailable: ${down}`);

  const parsed = await parseToolArgs(tool, call.args);
  if (!parsed.success) {
    return fail(
      tool.name,
      ToolErrorCode.INPUT_VALIDATION_ERROR,
      `The arguments do not match the input schema of ${tool.name}.`,
      parsed.issues,
    );
  }
  const traits = tool.classify(parsed.input);
  if (tool.requiresUserInteraction && !context.interactive) {
    return fail(
      tool.name,
      ToolErrorCode.USER_INTERACTION_REQUIRED,
      `${tool.name} needs a human to interact with, and this session is not interactive. Do it another way.`,
    );
  }

  const callContext: ToolCallContext = {
    sessionId: context.sessionId,
    callId: call.id,
    interactive: context.interactive,
    signal: context.signal ?? new AbortController().signal,
  };
  const validation = await tool.validateInput(parsed.input, callContext);
  if (!validation.valid) return fail(tool.name, ToolErrorCode.VALIDATION_ERROR, validation.message);

  const decision = await tool.checkPermissions(parsed.input, callContext);
  let permission: PermissionBehavior = decision.behavior;
  let permissionMessage =
    decision.behavior === 'allow' ? null : (decision.message ?? `${tool.name} requires permission to run.`);
  if (permission === 'ask' && !context.interactive) {
    permission = 'deny';
    permissionMessage =
      `${tool.name} needs a human's approval for this call, and this session is not interactive. ${permissionMessage ?? ''}`.trim();
  }

  return {
    type: 'prepared-call',
    callId: call.id,
    requestedName: call.name,
    toolName: tool.name,
    args: parsed.args,
    input: toJsonValue(parsed.input) ?? parsed.args,
    concurrency: tool.concurrency,
    ...traits,
    permission,
    permissionMessage,
    interruptBehavior: tool.interruptBehavior,
    requiresUserInteraction: tool.requiresUserInteraction,
    execution: resolveExecutionOptions(tool, traits),
  };
}

function whyUnavailable(tool: AnyTool, catalog: ToolCatalog | undefined): 'unknown' | 'not-loaded' | undefined {
  if (catalog === undefined) return tool.isEnabled() ? undefined : 'unknown';
  if (catalog.tools.some((entry) => entry.name === tool.name)) return undefined;
  return catalog.hiddenDeferredTools.includes(tool.name) ? 'not-loaded' : 'unknown';
}
