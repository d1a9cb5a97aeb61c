import { AT_MOST_ONCE, ConcurrencyClass, DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS } from '../dispatch';
import type { JsonObject, PreparedCall, ToolErrorOutcome, ToolExecutionOptions } from '../dispatch';
import type { ProposedToolCall } from '../models';
import { sameJson, withUsual, withoutUsual } from './usual-values';

/**
 * A prepared call as history carries it: without its type (it is always a prepared call) and the
 * fields that hold their usual value. Beside the
 * model's call it came from (`from`), its id, names and input are usual when they repeat that call;
 * alone, `requestedName` is usual when it is `toolName`. `args` is usual when it is `input`; the
 * usual concurrency class is `READ_ONLY` (most calls read), and the usual traits and execution
 * options are those of a tool that declares only its class.
 */
export type CompactPreparedCall = Omit<Partial<PreparedCall>, 'type' | 'execution'> & {
  readonly execution?: Partial<ToolExecutionOptions>;
};

/** A tool error in a model call's prepared list, without the id and name that repeat the model's call. */
export type CompactToolError = Partial<ToolErrorOutcome> & Pick<ToolErrorOutcome, 'type'>;

/** `call` as history carries it; `from` is the model's call it sits beside, when it does. */
export function compactPreparedCall(call: PreparedCall, from?: ProposedToolCall): CompactPreparedCall {
  const { type: _type, callId, requestedName, toolName, args, input, concurrency, execution, ...traits } = call;
  return {
    ...(from !== undefined && callId === from.id ? {} : { callId }),
    ...(requestedName === (from?.name ?? toolName) ? {} : { requestedName }),
    ...(from !== undefined && toolName === requestedName ? {} : { toolName }),
    ...(sameJson(args, input) ? {} : { args }),
    ...(from !== undefined && sameJson(input, from.args) ? {} : { input }),
    ...(concurrency === usualConcurrency ? {} : { concurrency }),
    ...withoutUsual(traits, usualTraits(concurrency)),
    ...compactExecution(execution, call),
  };
}

/** The call `compact` stands for (the inverse of {@link compactPreparedCall}, with the same `from`). */
export function expandPreparedCall(compact: CompactPreparedCall, from?: ProposedToolCall): PreparedCall {
  const requestedName = compact.requestedName ?? from?.name ?? compact.toolName;
  const toolName = compact.toolName ?? requestedName;
  const callId = compact.callId ?? from?.id;
  const input = compact.input !== undefined ? compact.input : (from?.args as PreparedCall['input'] | undefined);
  if (callId === undefined || requestedName === undefined || toolName === undefined || input === undefined)
    throw new TypeError('a compact prepared call lacks its id, name or input, and has no model call to take them from');
  const concurrency = compact.concurrency ?? usualConcurrency;
  const { execution, ...rest } = compact;
  const traits = withUsual(rest, usualTraits(concurrency));
  return {
    ...traits,
    type: 'prepared-call',
    callId,
    requestedName,
    toolName,
    args: compact.args !== undefined ? compact.args : (input as JsonObject),
    input,
    concurrency,
    execution: withUsual<ToolExecutionOptions>(execution ?? {}, usualExecution(traits)),
  };
}

/** A tool error beside the model's call it answers, without the id and name that repeat it. */
export function compactToolError(error: ToolErrorOutcome, from: ProposedToolCall | undefined): CompactToolError {
  return {
    type: error.type,
    ...withoutUsual(error, from === undefined ? {} : { callId: from.id, toolName: from.name }),
  };
}

/** The tool error `compact` stands for (the inverse of {@link compactToolError}). */
export function expandToolError(compact: CompactToolError, from: ProposedToolCall | undefined): ToolErrorOutcome {
  return withUsual<ToolErrorOutcome>(compact, from === undefined ? {} : { callId: from.id, toolName: from.name });
}

/** The concurrency class of most calls: reads. */
const usualConcurrency = ConcurrencyClass.READ_ONLY;

/** The traits of a call of a tool that declares none, for its concurrency class. */
function usualTraits(concurrency: PreparedCall['concurrency']): Partial<PreparedCall> {
  const readOnly = concurrency === ConcurrencyClass.READ_ONLY;
  return {
    concurrencySafe: readOnly,
    readOnly,
    destructive: false,
    openWorld: true,
    permission: 'allow',
    permissionMessage: null,
    interruptBehavior: 'block',
    requiresUserInteraction: false,
  };
}

/** The execution options of a tool that declares none, for the call's traits (`resolveExecutionOptions`). */
function usualExecution({
  readOnly,
  destructive,
}: Pick<PreparedCall, 'readOnly' | 'destructive'>): ToolExecutionOptions {
  return {
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    heartbeatTimeoutMs: null,
    retry: readOnly && !destructive ? DEFAULT_READ_ONLY_RETRY : AT_MOST_ONCE,
  };
}

function compactExecution(
  execution: ToolExecutionOptions,
  call: PreparedCall,
): { execution?: Partial<ToolExecutionOptions> } {
  const compact = withoutUsual(execution, usualExecution(call));
  return Object.keys(compact).length === 0 ? {} : { execution: compact };
}
