import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from 'ai';

/** One call of a tool, as the policy judges and records it. */
export interface PolicyCall {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
}

/** What the wrapped tools ask of the policy around each execution. */
export interface PolicyCallRunner {
  /** Resolves when the call may run (judged now if it was not yet); rejects with a `RuleBlockedError` when refused. */
  begin(call: PolicyCall, abortSignal: AbortSignal | undefined): Promise<void>;
  /** Records the outcome, after the step's earlier calls (in call order). */
  end(
    call: PolicyCall,
    outcome: { result: unknown; error: boolean },
    abortSignal: AbortSignal | undefined,
  ): Promise<void>;
  /**
   * Whether a call needs a human's approval (a rule says so, or else the tool's own `needsApproval`),
   * in loops that ask the tools instead of `toolApproval`; `messages` are those the loop gives.
   */
  needsApproval(call: PolicyCall, ownVerdict: () => Promise<boolean>, messages: ModelMessage[]): Promise<boolean>;
}

type AnyExecute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  value != null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';

const isGeneratorFunction = (value: unknown): boolean =>
  Object.prototype.toString.call(value) === '[object AsyncGeneratorFunction]';

/** Runs `execute` between `begin` and `end`, settling on a single value (the last one a streaming tool yields). */
async function runOnce(runner: PolicyCallRunner, call: PolicyCall, execute: () => unknown, signal?: AbortSignal) {
  await runner.begin(call, signal);
  let result: unknown;
  try {
    const returned = execute();
    if (isAsyncIterable(returned)) for await (const value of returned) result = value;
    else result = await returned;
  } catch (error) {
    await runner.end(call, { result: null, error: true }, signal);
    throw error;
  }
  await runner.end(call, { result, error: false }, signal);
  return result;
}

/** The same, for a tool whose `execute` streams (an async generator): its values pass through as they come. */
async function* runStreaming(runner: PolicyCallRunner, call: PolicyCall, execute: () => unknown, signal?: AbortSignal) {
  await runner.begin(call, signal);
  let result: unknown = null;
  try {
    const returned = execute();
    if (isAsyncIterable(returned)) {
      for await (const value of returned) {
        result = value;
        yield value;
      }
    } else {
      result = await returned;
      yield result;
    }
  } catch (error) {
    await runner.end(call, { result: null, error: true }, signal);
    throw error;
  }
  await runner.end(call, { result, error: false }, signal);
}

/** One tool, wrapped: its `execute` judged, run and recorded; its `needsApproval` also asking when a rule does. */
function wrapTool(name: string, tool: Tool, runner: PolicyCallRunner): Tool {
  if (tool.type === 'provider' && tool.isProviderExecuted) return tool;
  const own = tool.needsApproval;
  const needsApproval = async (
    input: unknown,
    options: { toolCallId: string; messages: ModelMessage[]; context: unknown },
  ) => {
    const ownVerdict = async (): Promise<boolean> =>
      typeof own === 'function'
        ? await (own as (i: unknown, o: unknown) => boolean | PromiseLike<boolean>)(input, options)
        : own === true;
    return runner.needsApproval({ callId: options.toolCallId, tool: name, args: input }, ownVerdict, options.messages);
  };
  const execute = tool.execute as AnyExecute | undefined;
  if (execute === undefined) return { ...tool, needsApproval };
  const wrapped = isGeneratorFunction(execute)
    ? (input: unknown, options: ToolExecutionOptions<unknown>) =>
        runStreaming(
          runner,
          { callId: options.toolCallId, tool: name, args: input },
          () => execute(input, options),
          options.abortSignal,
        )
    : (input: unknown, options: ToolExecutionOptions<unknown>) =>
        runOnce(
          runner,
          { callId: options.toolCallId, tool: name, args: input },
          () => execute(input, options),
          options.abortSignal,
        );
  return { ...tool, needsApproval, execute: wrapped };
}

/**
 * The loop's tools with the policy around each: the same objects (schemas, descriptions, outputs)
 * but every execution is judged (when `toolApproval` did not judge it already), run in call order
 * where the rules need it, and its outcome recorded, also in loops that never call `toolApproval`.
 */
export function wrapPolicyTools<TOOLS extends ToolSet>(tools: TOOLS, runner: PolicyCallRunner): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) wrapped[name] = wrapTool(name, tool as Tool, runner);
  return wrapped as TOOLS;
}
