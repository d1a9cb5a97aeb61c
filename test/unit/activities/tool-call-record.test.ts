import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readToolCallRecord, toolCallRecordName, writeToolCallRecord } from '../../../activities/tool-call-record';
import type { DispatchedCall } from '../../../src/session';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { encodedContent } from '../../../src/store/encoded-content';
import type { EncodedContent } from '../../../src/store/encoded-content';

const message = { role: 'tool', key: 'a'.repeat(64), bytes: 14, preview: 'change applied' } as const;
const executed: DispatchedCall = {
  outcome: { type: 'tool-result', callId: 'call_1', toolName: 'apply_change', output: 'change applied' },
  message,
};

describe('the record of a tool call', () => {
  let directory: string;
  let store: EncodedContent;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-record-'));
    store = encodedContent(new DirectoryContentStore(directory));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is named by the call idempotency key without the session', () => {
    expect(toolCallRecordName(3, 'call_1')).toBe('tool-call/3/call_1');
  });

  it('reads back what the activity returned, by session, turn and call', async () => {
    await writeToolCallRecord(store, { sessionId: 's1', turn: 3, executed });
    expect(await readToolCallRecord(store, { sessionId: 's1', turn: 3, callId: 'call_1' })).toEqual(executed);
    expect(await readToolCallRecord(store, { sessionId: 's1', turn: 4, callId: 'call_1' })).toBeUndefined();
    expect(await readToolCallRecord(store, { sessionId: 's2', turn: 3, callId: 'call_1' })).toBeUndefined();
  });

  it('keeps the first outcome of a call', async () => {
    await writeToolCallRecord(store, { sessionId: 's1', turn: 0, executed });
    const later: DispatchedCall = {
      outcome: {
        type: 'tool-error',
        callId: 'call_1',
        toolName: 'apply_change',
        code: 'EXECUTION_ERROR',
        message: 'x',
      },
      message,
    };
    await writeToolCallRecord(store, { sessionId: 's1', turn: 0, executed: later });
    expect(await readToolCallRecord(store, { sessionId: 's1', turn: 0, callId: 'call_1' })).toEqual(executed);
  });

  it('refuses a record that is not the outcome of that call', async () => {
    await store.putRecord('s1', toolCallRecordName(0, 'call_1'), new TextEncoder().encode('{"executed":{}}'));
    await expect(readToolCallRecord(store, { sessionId: 's1', turn: 0, callId: 'call_1' })).rejects.toThrow(
      /is not a call's outcome/,
    );
  });
});
