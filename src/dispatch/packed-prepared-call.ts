import { DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS, withUsual, withoutUsual } from '../kernel';
import type { JsonObject, JsonValue, ProposedToolCall } from '../kernel';
import type { PreparedCall } from './prepared-call';

/**
 * A prepared call as it travels through history (the model call's result, the tool activity's
 * input): the fields at their usual value are left out, which cuts a call to about a quarter of
 * its full form. `args` is left out when it equals `input`, `requestedName` when it equals
 * `toolName`, the rest when it equals {@link usualCall}'s. Next to the model's call it came from (in
 * the model call's result), `callId`, `toolName` and `input` are left out too when they are that
 * call's id, name and arguments. A call in its full form (as earlier versions wrote it) is a packed
 * call too: it unpacks to itself.
 */
export type PackedPreparedCall = Pick<PreparedCall, 'type'> & Partial<PreparedCall>;

/** The values most calls have (a read-only tool with no declared policy): left out when packed, filled in when unpacked. */
const usualCall = {
  concurrency: 'READ_ONLY',
  concurrencySafe: true,
  readOnly: true,
  destructive: false,
  openWorld: true,
  permission: 'allow',
  permissionMessage: null,
  interruptBehavior: 'block',
  requiresUserInteraction: false,
  execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: DEFAULT_READ_ONLY_RETRY },
} as const satisfies Partial<PreparedCall>;

/** `call` without the fields at their usual value; with `from`, the model's call it came from, also without what repeats it. */
export function packPreparedCall(call: PreparedCall, from?: ProposedToolCall): PackedPreparedCall {
  const usual: Partial<PreparedCall> = {
    ...usualCall,
    requestedName: call.toolName,
    args: call.input as JsonObject,
    ...(from === undefined ? {} : asModelCalled(from)),
  };
  return { type: call.type, ...withoutUsual(call, usual) };
}

/**
 * The full call of a packed one (a full call is returned as it is). `from`: the model's call it was
 * packed next to; without it, a call that lacks its id, tool or input cannot be read.
 */
export function unpackPreparedCall(packed: PackedPreparedCall, from?: ProposedToolCall): PreparedCall {
  const named = from === undefined ? packed : withUsual(packed, asModelCalled(from));
  const { callId, toolName, input } = named;
  if (callId === undefined || toolName === undefined || input === undefined)
    throw new TypeError('a packed prepared call without its id, tool or input, and no model call to take them from');
  return withUsual<PreparedCall>(named, { ...usualCall, requestedName: toolName, args: input as JsonObject });
}

/** Whether `packed` is a call (or a tool error) packed to its type alone: a call as the model made it. */
export function isPackedAsModelCall(packed: PackedPreparedCall | { type: string }): boolean {
  return packed.type === 'prepared-call' && Object.keys(packed).length === 1;
}

/** A call as the model made it, packed (what a model call's result without its `prepared` list holds for each call). */
export const packedAsModelCall: PackedPreparedCall = { type: 'prepared-call' };

/**
 * The fields of a prepared call that repeat the model's call when the call is as the model made it:
 * its id, the name the model used (and resolved to, when it is no alias), and its arguments as input.
 */
function asModelCalled(from: ProposedToolCall): Pick<PreparedCall, 'callId' | 'requestedName' | 'toolName' | 'input'> {
  return { callId: from.id, requestedName: from.name, toolName: from.name, input: from.args as JsonValue };
}
