import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallModelInput, CallModelResult, ExecuteToolInput, ExecutedCall } from '../../../activities';
import { activityPayloadCompaction, sessionWorkflowType } from '../../../src/compaction';
import { AT_MOST_ONCE, DEFAULT_READ_ONLY_RETRY } from '../../../src/dispatch';
import type { PreparedCall, ToolErrorOutcome } from '../../../src/dispatch';
import type { ProposedToolCall } from '../../../src/models';
import { readOnlyCall } from '../../helpers/read-only-call';

const callModel = activityPayloadCompaction(sessionWorkflowType, 'callModel')!;
const executeTool = activityPayloadCompaction(sessionWorkflowType, 'executeTool')!;

/** What history carries: the compact form through JSON, as the payload converter writes it. */
const throughHistory = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

const lookup: ProposedToolCall = { id: 'call_1', name: 'lookup_customer', args: { email: 'ada@example.com' } };

/** A content key (a hex SHA-256) and the same key in base64url, as history carries it. */
function contentKey(content: string): { hex: string; base64url: string } {
  const digest = createHash('sha256').update(content).digest();
  return { hex: digest.toString('hex'), base64url: digest.toString('base64url') };
}
const assistantKey = contentKey('assistant');
const sealedKey = contentKey('sealed');
const tailKey = contentKey('tail');
const toolKey = contentKey('tool');

/** A read-only call of a tool that declares nothing else, as `prepareToolCall` makes it from `from`. */
function usualCall(from: ProposedToolCall): PreparedCall {
  const args = from.args as PreparedCall['args'];
  return readOnlyCall({ callId: from.id, requestedName: from.name, toolName: from.name, args, input: args });
}

function modelResult(toolCalls: ProposedToolCall[], prepared: (PreparedCall | ToolErrorOutcome)[]): CallModelResult {
  return {
    response: { toolCalls, finishReason: toolCalls.length > 0 ? 'tool-calls' : 'stop' },
    assistant: {
      role: 'assistant',
      key: assistantKey.hex,
      bytes: 90,
      preview: toolCalls.map((call) => `→ ${call.name}(${JSON.stringify(call.args)})`).join(' '),
    },
    shown: { messages: 3, previewed: 0, omitted: 0, bytes: 420, budgetBytes: 1_048_576 },
    prepared,
    sealed: { key: sealedKey.hex, bytes: 800, preview: '' },
  };
}

const modelInput: CallModelInput = {
  sessionId: 'session-1',
  storeId: 'store-1',
  turn: 2,
  settings: { provider: 'scripted', model: 'm' },
  conversation: { head: null, tail: [tailKey.hex] },
  toolset: { version: 'v1', visible: 'ff', filter: null, revealed: [] },
  interactive: false,
};

function toolInput(call: PreparedCall): ExecuteToolInput {
  return {
    sessionId: 'session-1',
    storeId: 'store-1',
    turn: 2,
    call,
    interactive: false,
    approved: false,
    rulesReadOutput: false,
  };
}

describe('compaction of the model call', () => {
  it('leaves out every field that goes without saying, and reads the result back whole', () => {
    const result = modelResult([lookup], [usualCall(lookup)]);
    const compact = throughHistory(callModel.compactResult(result, modelInput));
    expect(compact).toEqual({
      response: { toolCalls: [lookup] },
      assistant: { key: assistantKey.base64url, bytes: 90 },
      shown: { messages: 3, bytes: 420 },
      sealed: { key: sealedKey.base64url, bytes: 800 },
    });
    expect(callModel.expandResult(compact, modelInput)).toEqual(result);
  });

  it('keeps a preview, a budget and a class that are not the usual ones', () => {
    const write: PreparedCall = {
      ...usualCall(lookup),
      concurrency: 'UNSAFE',
      concurrencySafe: false,
      readOnly: false,
      execution: { timeoutMs: 60_000, heartbeatTimeoutMs: null, retry: AT_MOST_ONCE },
    };
    const usual = modelResult([lookup], [write]);
    const result: CallModelResult = {
      ...usual,
      assistant: { ...usual.assistant, preview: 'Let me look.' },
      shown: { ...usual.shown, previewed: 1, budgetBytes: 4_096 },
    };
    const compact = throughHistory(callModel.compactResult(result, modelInput));
    expect(compact).toMatchObject({
      assistant: { preview: 'Let me look.' },
      shown: { previewed: 1, budgetBytes: 4_096 },
      prepared: [{ concurrency: 'UNSAFE' }],
    });
    expect(callModel.expandResult(compact, modelInput)).toEqual(result);
  });

  it('keeps what differs from the model call: an alias, other input, a tool error, declared options', () => {
    const alias: ProposedToolCall = { id: 'call_2', name: 'find_customer', args: { email: 'grace@example.com' } };
    const failed: ProposedToolCall = { id: 'call_3', name: 'nope', args: {} };
    const aliased: PreparedCall = {
      ...usualCall(alias),
      toolName: 'lookup_customer',
      input: { email: 'grace@example.com', limit: 10 },
      concurrency: 'UNSAFE',
      concurrencySafe: false,
      readOnly: false,
      permission: 'ask',
      permissionMessage: 'a human approves refunds',
      execution: { timeoutMs: 5_000, heartbeatTimeoutMs: 1_000, retry: AT_MOST_ONCE, activity: { activityType: 'x' } },
    };
    const error: ToolErrorOutcome = {
      type: 'tool-error',
      callId: 'call_3',
      toolName: 'nope',
      code: 'UNKNOWN_TOOL',
      message: 'There is no tool nope.',
    };
    const result = modelResult([lookup, alias, failed], [usualCall(lookup), aliased, error]);
    const compact = throughHistory(callModel.compactResult(result, modelInput)) as { prepared: unknown[] };
    expect(compact.prepared).toEqual([
      {},
      {
        toolName: 'lookup_customer',
        args: { email: 'grace@example.com' },
        input: { email: 'grace@example.com', limit: 10 },
        concurrency: 'UNSAFE',
        permission: 'ask',
        permissionMessage: 'a human approves refunds',
        execution: { timeoutMs: 5_000, heartbeatTimeoutMs: 1_000, activity: { activityType: 'x' } },
      },
      { type: 'tool-error', code: 'UNKNOWN_TOOL', message: 'There is no tool nope.' },
    ]);
    expect(callModel.expandResult(compact, modelInput)).toEqual(result);
  });

  it('keeps an empty prepared list when the finish reason stopped the calls', () => {
    const result: CallModelResult = {
      ...modelResult([lookup], []),
      response: { toolCalls: [lookup], finishReason: 'length' },
    };
    const compact = throughHistory(callModel.compactResult(result, modelInput));
    expect(compact).toMatchObject({ prepared: [], response: { finishReason: 'length' } });
    expect(callModel.expandResult(compact, modelInput)).toEqual(result);
  });

  it('passes a changed catalog through as it is', () => {
    const changed = { catalogChanged: { version: 'v2', tools: [], hiddenDeferredTools: [] } };
    expect(callModel.compactResult(changed as never, modelInput)).toBe(changed);
    expect(callModel.expandResult(changed, modelInput)).toBe(changed);
  });

  it('sends the input without the session id and the usual toolset, and the activity reads it whole', () => {
    const compact = throughHistory(callModel.compactInput(modelInput));
    expect(compact).toEqual({
      storeId: 'store-1',
      turn: 2,
      settings: { provider: 'scripted', model: 'm' },
      conversation: { head: null, tail: [tailKey.base64url] },
      toolset: { version: 'v1', visible: 'ff' },
    });
    expect(callModel.expandInput(compact, 'session-1')).toEqual(modelInput);
  });
});

describe('compaction of the tool call', () => {
  it('sends the call without its type, usual fields and false flags, and the activity reads it whole', () => {
    const input = toolInput(usualCall(lookup));
    const compact = throughHistory(executeTool.compactInput(input));
    expect(compact).toEqual({
      storeId: 'store-1',
      turn: 2,
      call: { callId: 'call_1', toolName: 'lookup_customer', input: lookup.args },
    });
    expect(executeTool.expandInput(compact, 'session-1')).toEqual(input);
  });

  it('leaves out a result the rules do not read, and keeps an error whole without gaining an output', () => {
    const input = toolInput(usualCall(lookup));
    const stored: ExecutedCall = {
      outcome: { type: 'tool-result', callId: 'call_1', toolName: 'lookup_customer', output: null },
      message: { role: 'tool', key: toolKey.hex, bytes: 120, preview: '{"orders":[]}' },
    };
    const compactStored = throughHistory(executeTool.compactResult(stored, input));
    expect(compactStored).toEqual({ message: { key: toolKey.base64url, bytes: 120, preview: '{"orders":[]}' } });
    expect(executeTool.expandResult(compactStored, input)).toEqual(stored);

    const failed: ExecutedCall = {
      outcome: {
        type: 'tool-error',
        callId: 'call_1',
        toolName: 'lookup_customer',
        code: 'EXECUTION_ERROR',
        message: 'boom',
        retryable: false,
      },
    };
    const compactFailed = throughHistory(executeTool.compactResult(failed, input));
    expect(executeTool.expandResult(compactFailed, input)).toEqual(failed);

    const offloaded: ExecutedCall = {
      outcome: {
        type: 'tool-result',
        callId: 'call_1',
        toolName: 'lookup_customer',
        output: '{"orders":[',
        offloadedTo: toolKey.hex,
        fullSizeChars: 90_000,
      },
    };
    const compactOffloaded = throughHistory(executeTool.compactResult(offloaded, input));
    expect(compactOffloaded).toMatchObject({ outcome: { offloadedTo: toolKey.base64url } });
    expect(executeTool.expandResult(compactOffloaded, input)).toEqual(offloaded);
  });

  it('reads a whole input and result as they are', () => {
    const input = toolInput({ ...usualCall(lookup), concurrency: 'UNSAFE', concurrencySafe: false, readOnly: false });
    const whole = throughHistory(input);
    expect(executeTool.expandInput(whole, 'another-id')).toEqual(input);
    const result: ExecutedCall = {
      outcome: { type: 'tool-result', callId: 'call_1', toolName: 'lookup_customer', output: { a: 1 } },
    };
    expect(executeTool.expandResult(throughHistory(result), input)).toEqual(result);
  });

  it('reads back every prepared call it compacts, beside a model call or alone', () => {
    const json = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.string(),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    const args = fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 3 });
    const call = fc.record({
      callId: fc.constantFrom('call_1', 'call_2'),
      requestedName: fc.constantFrom('lookup_customer', 'find'),
      toolName: fc.constantFrom('lookup_customer', 'find'),
      args,
      input: fc.oneof(args, json),
      concurrency: fc.constantFrom('READ_ONLY', 'WRITE_EXCLUSIVE', 'UNSAFE'),
      concurrencySafe: fc.boolean(),
      readOnly: fc.boolean(),
      destructive: fc.boolean(),
      openWorld: fc.boolean(),
      permission: fc.constantFrom('allow', 'deny', 'ask'),
      permissionMessage: fc.option(fc.string(), { nil: null }),
      interruptBehavior: fc.constantFrom('cancel', 'block'),
      requiresUserInteraction: fc.boolean(),
      execution: fc.record({
        timeoutMs: fc.constantFrom(60_000, 5_000),
        heartbeatTimeoutMs: fc.option(fc.constantFrom(5_000), { nil: null }),
        retry: fc.constantFrom(DEFAULT_READ_ONLY_RETRY, AT_MOST_ONCE),
      }),
    });
    fc.assert(
      fc.property(call, (fields) => {
        const prepared = { type: 'prepared-call', ...fields } as PreparedCall;
        const from: ProposedToolCall = { id: 'call_1', name: 'lookup_customer', args: fields.args };
        const result = modelResult([from], [prepared]);
        expect(callModel.expandResult(throughHistory(callModel.compactResult(result, modelInput)), modelInput)).toEqual(
          result,
        );
        const input = toolInput(prepared);
        expect(executeTool.expandInput(throughHistory(executeTool.compactInput(input)), 'session-1')).toEqual(input);
      }),
    );
  });
});

describe('which activities are compacted', () => {
  it("compacts only a session's model and tool activities", () => {
    expect(activityPayloadCompaction(sessionWorkflowType, 'callModel')).toBeDefined();
    expect(activityPayloadCompaction(sessionWorkflowType, 'executeTool')).toBeDefined();
    expect(activityPayloadCompaction(sessionWorkflowType, 'chargeCard')).toBeUndefined();
    expect(activityPayloadCompaction(sessionWorkflowType, 'toString')).toBeUndefined();
    expect(activityPayloadCompaction('orderWorkflow', 'executeTool')).toBeUndefined();
    expect(activityPayloadCompaction(undefined, 'callModel')).toBeUndefined();
  });
});
