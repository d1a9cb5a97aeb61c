import { DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS } from '../kernel';
import type { JsonObject } from '../kernel';
import type { PreparedCall } from './prepared-call';

/**
 * A prepared call as it travels through history (the model call's result, the tool activity's
 * input): the fields at their usual value are left out, which cuts a call to about a quarter of
 * its full form. `args` is left out when it equals `input`, `requestedName` when it equals
 * `toolName`, the rest when it equals {@link usualCall}'s. A call in its full form (as earlier
 * versions wrote it) is a packed call too: it unpacks to itself.
 */
export type PackedPreparedCall = Pick<PreparedCall, 'type' | 'callId' | 'toolName' | 'input'> & Partial<PreparedCall>;

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

/** `call` without the fields at their usual value. */
export function packPreparedCall(call: PreparedCall): PackedPreparedCall {
  const { type, callId, toolName, input } = call;
  const packed: Record<string, unknown> = { type, callId, toolName, input };
  if (call.requestedName !== toolName) packed['requestedName'] = call.requestedName;
  if (!sameJson(call.args, input)) packed['args'] = call.args;
  for (const key of Object.keys(call) as (keyof PreparedCall)[]) {
    if (key in packed || key === 'requestedName' || key === 'args') continue;
    const usual = (usualCall as Partial<Record<keyof PreparedCall, unknown>>)[key];
    if (usual === undefined || !sameJson(call[key], usual)) packed[key] = call[key];
  }
  return packed as PackedPreparedCall;
}

/** The full call of a packed one (a full call is returned as it is). */
export function unpackPreparedCall(packed: PackedPreparedCall): PreparedCall {
  return {
    ...usualCall,
    requestedName: packed.toolName,
    args: packed.input as JsonObject,
    ...packed,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
