import type { ModelMessage, ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';

/** What the loop's own approval settings say of a call the rules allow: refuse it, ask a human, or nothing. */
export type LoopApproval =
  { readonly kind: 'denied'; readonly reason: string } | { readonly kind: 'ask'; readonly reason: string } | undefined;

/** The options the AI SDK gives a `toolApproval` function, as the policy passes them on. */
export interface ApprovalRequest {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly messages: ModelMessage[];
  readonly tools?: unknown;
  readonly toolsContext?: unknown;
  readonly runtimeContext?: unknown;
}

type StatusFunction = (...args: unknown[]) => ToolApprovalStatus | PromiseLike<ToolApprovalStatus>;
type NeedsApprovalFunction = (input: unknown, options: unknown) => boolean | PromiseLike<boolean>;

/** A status as the loop's verdict (`undefined`: approved, or no opinion). */
function verdictOf(tool: string, status: ToolApprovalStatus): LoopApproval {
  const normalized = typeof status === 'string' ? { type: status } : status;
  if (normalized === undefined || normalized.type === 'not-applicable' || normalized.type === 'approved')
    return undefined;
  const reason = 'reason' in normalized && typeof normalized.reason === 'string' ? normalized.reason : undefined;
  if (normalized.type === 'denied')
    return { kind: 'denied', reason: reason ?? `The toolApproval denied this ${tool} call.` };
  return { kind: 'ask', reason: reason ?? `${tool} needs approval (toolApproval)` };
}

/**
 * Asks the loop's own approval settings about a call, in the AI SDK's order: the `toolApproval`
 * given to the policy (one function for every call, or a status or function per tool), else the
 * tool's `needsApproval`. Their errors are not caught: the AI SDK fails the step, as it would.
 */
export async function askLoopApproval<TOOLS extends ToolSet>(options: {
  readonly request: ApprovalRequest;
  readonly toolApproval: ToolApprovalConfiguration<TOOLS, Record<string, unknown>> | undefined;
  readonly tool: ToolSet[string] | undefined;
}): Promise<LoopApproval> {
  const { request, toolApproval, tool } = options;
  const { toolCall, messages } = request;
  const name = toolCall.toolName;
  const context = (request.toolsContext as Record<string, unknown> | undefined)?.[name];
  // As in the AI SDK: a function decides every call; a tool's own entry decides its calls; else `needsApproval`.
  if (typeof toolApproval === 'function') return verdictOf(name, await (toolApproval as StatusFunction)(request));
  if (toolApproval !== undefined && Object.hasOwn(toolApproval, name)) {
    const entry = (toolApproval as Record<string, ToolApprovalStatus | StatusFunction>)[name];
    if (typeof entry !== 'function') return verdictOf(name, entry);
    const toolContext = context;
    const { toolCallId, input } = toolCall;
    return verdictOf(
      name,
      await entry(input, { toolCallId, messages, toolContext, runtimeContext: request.runtimeContext }),
    );
  }
  const needsApproval = tool?.needsApproval;
  if (needsApproval === undefined || needsApproval === false) return undefined;
  const asks =
    needsApproval === true ||
    (await (needsApproval as NeedsApprovalFunction)(toolCall.input, {
      toolCallId: toolCall.toolCallId,
      messages,
      context,
    }));
  return asks ? { kind: 'ask', reason: `${name} asks for approval (its needsApproval)` } : undefined;
}
