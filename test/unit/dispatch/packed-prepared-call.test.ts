import { describe, expect, it } from 'vitest';
import { isPackedAsModelCall, packPreparedCall, unpackPreparedCall } from '../../../src/dispatch/packed-prepared-call';
import { AT_MOST_ONCE } from '../../../src/kernel/defaults';
import { readOnlyCall } from '../../helpers/read-only-call';

const bytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

describe('packed prepared calls', () => {
  it('a call at its usual values packs to its id, tool and input, at most a third of its bytes', () => {
    const packed = packPreparedCall(readOnlyCall());
    expect(packed).toEqual({ type: 'prepared-call', callId: 'call_1_0', toolName: 'read_page', input: { page: 1 } });
    expect(bytes(packed)).toBeLessThanOrEqual(bytes(readOnlyCall()) / 3);
    expect(unpackPreparedCall(packed)).toEqual(readOnlyCall());
  });

  it('keeps every field that differs from the usual call, and unpacks to the same call', () => {
    const unusual = readOnlyCall({
      requestedName: 'page_reader',
      args: { page: '1' },
      concurrency: 'UNSAFE',
      concurrencySafe: false,
      readOnly: false,
      destructive: true,
      openWorld: false,
      permission: 'ask',
      permissionMessage: 'Deleting needs a human.',
      interruptBehavior: 'cancel',
      requiresUserInteraction: true,
      execution: { timeoutMs: 5_000, heartbeatTimeoutMs: 1_000, retry: AT_MOST_ONCE, localActivity: true },
    });
    const packed = packPreparedCall(unusual);
    expect(Object.keys(packed).sort()).toEqual(Object.keys(unusual).sort());
    expect(unpackPreparedCall(packed)).toEqual(unusual);
  });

  it('keeps only the one field that differs: an execution option, an alias, arguments the schema changed', () => {
    const slower = readOnlyCall({ execution: { ...readOnlyCall().execution, timeoutMs: 120_000 } });
    expect(packPreparedCall(slower)).toHaveProperty('execution', slower.execution);
    expect(packPreparedCall(slower)).not.toHaveProperty('args');
    expect(unpackPreparedCall(packPreparedCall(slower))).toEqual(slower);
    const aliased = readOnlyCall({ requestedName: 'page' });
    expect(packPreparedCall(aliased)).toMatchObject({ requestedName: 'page' });
    expect(unpackPreparedCall(packPreparedCall(aliased))).toEqual(aliased);
    const defaulted = readOnlyCall({ args: {}, input: { page: 1 } });
    expect(packPreparedCall(defaulted)).toMatchObject({ args: {}, input: { page: 1 } });
    expect(unpackPreparedCall(packPreparedCall(defaulted))).toEqual(defaulted);
  });

  it('reads a call in its full form (as earlier versions wrote it into history) as it is', () => {
    const full = readOnlyCall({ concurrency: 'WRITE_EXCLUSIVE', concurrencySafe: false });
    expect(unpackPreparedCall(full)).toEqual(full);
  });
});

describe('prepared calls packed next to the model call they came from', () => {
  const modelCall = { id: 'call_1_0', name: 'read_page', args: { page: 1 } };

  it('a call as the model made it packs to its type alone, and unpacks to itself from the model call', () => {
    const packed = packPreparedCall(readOnlyCall(), modelCall);
    expect(packed).toEqual({ type: 'prepared-call' });
    expect(unpackPreparedCall(packed, modelCall)).toEqual(readOnlyCall());
  });

  it('keeps what differs from the model call: the resolved tool of an alias, the input the schema changed', () => {
    const aliased = readOnlyCall({ requestedName: 'page' });
    const fromAlias = { ...modelCall, name: 'page' };
    expect(packPreparedCall(aliased, fromAlias)).toEqual({ type: 'prepared-call', toolName: 'read_page' });
    expect(unpackPreparedCall(packPreparedCall(aliased, fromAlias), fromAlias)).toEqual(aliased);
    const defaulted = readOnlyCall({ args: {}, input: { page: 1 } });
    const fromEmpty = { ...modelCall, args: {} };
    expect(packPreparedCall(defaulted, fromEmpty)).toEqual({ type: 'prepared-call', input: { page: 1 }, args: {} });
    expect(unpackPreparedCall(packPreparedCall(defaulted, fromEmpty), fromEmpty)).toEqual(defaulted);
  });

  it('reads a call packed without the model call, or in its full form, as it is', () => {
    expect(unpackPreparedCall(packPreparedCall(readOnlyCall()), modelCall)).toEqual(readOnlyCall());
    const full = readOnlyCall({ concurrency: 'WRITE_EXCLUSIVE', concurrencySafe: false });
    expect(unpackPreparedCall(full, modelCall)).toEqual(full);
  });

  it('tells a call packed to its type alone (as the model made it) from one that keeps a field, and from a tool error', () => {
    expect(isPackedAsModelCall(packPreparedCall(readOnlyCall(), modelCall))).toBe(true);
    expect(isPackedAsModelCall(packPreparedCall(readOnlyCall({ readOnly: false }), modelCall))).toBe(false);
    expect(isPackedAsModelCall(packPreparedCall(readOnlyCall()))).toBe(false);
    expect(isPackedAsModelCall({ type: 'tool-error' })).toBe(false);
  });

  it('refuses to read a call that lacks its id, tool or input without the model call to take them from', () => {
    expect(() => unpackPreparedCall(packPreparedCall(readOnlyCall(), modelCall))).toThrow(/no model call/);
  });
});
