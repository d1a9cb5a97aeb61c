import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../src/session/session-views';
import { readTranscript } from '../../../src/tracing/read-transcript';
import { recordedTrace } from '../../../src/tracing/recorded-trace';

const model = (
  turn: number,
  calls: { callId: string; tool: string; args?: unknown }[],
  text?: string,
): TranscriptEntry => ({
  kind: 'model',
  turn,
  visible: ['a', 'b'],
  ...(text === undefined ? {} : { text }),
  calls: calls.map(({ callId, tool, args }) => ({ callId, tool, args: args ?? {} })),
});

describe('a recorded session as a simulate trace', () => {
  it('keeps results as JSON when they parse, failures as errors, and leaves out calls that never reached the rules', async () => {
    const entries: TranscriptEntry[] = [
      { kind: 'user', turn: 0, text: 'go' },
      model(0, [
        { callId: '1', tool: 'a', args: { x: 1 } },
        { callId: '2', tool: 'b' },
        { callId: '3', tool: 'b' },
        { callId: '4', tool: 'nope' },
      ]),
      { kind: 'verdict', turn: 0, callId: '1', tool: 'a', verdict: 'allowed', reasons: [] },
      { kind: 'verdict', turn: 0, callId: '2', tool: 'b', verdict: 'allowed', reasons: [] },
      { kind: 'verdict', turn: 0, callId: '3', tool: 'b', verdict: 'blocked', reasons: [{ code: 'x', message: 'no' }] },
      { kind: 'tool', turn: 0, callId: '1', tool: 'a', isError: false, content: '{"ok":true}' },
      { kind: 'tool', turn: 0, callId: '2', tool: 'b', isError: true, code: 'EXECUTION_ERROR', content: 'Error' },
      { kind: 'tool', turn: 0, callId: '3', tool: 'b', isError: true, code: 'RULE_BLOCKED', content: 'blocked' },
      { kind: 'tool', turn: 0, callId: '4', tool: 'nope', isError: true, code: 'UNKNOWN_TOOL', content: 'unknown' },
      model(1, [], 'done'),
      { kind: 'run-end', turn: 1, reason: 'answered' },
    ];
    const trace = recordedTrace(await readTranscript(entries), ['a', 'b', 'c']);
    expect(trace).toEqual({
      tools: ['a', 'b', 'c'],
      events: [
        { user: 'go' },
        {
          calls: [
            { tool: 'a', args: { x: 1 }, result: { ok: true } },
            { tool: 'b', args: {}, error: true },
            { tool: 'b', args: {} },
          ],
        },
        { text: 'done' },
      ],
    });
  });

  it('marks calls the rules allowed but a human or a permission stopped as not approved', async () => {
    const entries: TranscriptEntry[] = [
      model(0, [
        { callId: '1', tool: 'a' },
        { callId: '2', tool: 'b' },
      ]),
      { kind: 'verdict', turn: 0, callId: '1', tool: 'a', verdict: 'allowed', reasons: [] },
      { kind: 'verdict', turn: 0, callId: '2', tool: 'b', verdict: 'allowed', reasons: [] },
      { kind: 'approval', turn: 0, callId: '1', tool: 'a', decision: 'denied' },
      { kind: 'tool', turn: 0, callId: '1', tool: 'a', isError: true, code: 'APPROVAL_DENIED', content: 'no' },
      { kind: 'tool', turn: 0, callId: '2', tool: 'b', isError: true, code: 'PERMISSION_DENIED', content: 'no' },
    ];
    const trace = recordedTrace(await readTranscript(entries), []);
    expect(trace.events).toEqual([
      {
        calls: [
          { tool: 'a', args: {}, approved: false },
          { tool: 'b', args: {}, approved: false },
        ],
      },
    ]);
    // Tools the session showed join the catalog.
    expect(trace.tools).toEqual(['a', 'b']);
  });

  it('reads every tool result through the given reader', async () => {
    const entries: TranscriptEntry[] = [
      model(0, [{ callId: '1', tool: 'a' }]),
      { kind: 'verdict', turn: 0, callId: '1', tool: 'a', verdict: 'allowed', reasons: [] },
      { kind: 'tool', turn: 0, callId: '1', tool: 'a', isError: false, content: 'preview…' },
    ];
    const events = await readTranscript(entries, (entry) => Promise.resolve(`full text of ${entry.callId}`));
    expect(recordedTrace(events, ['a']).events).toEqual([
      { calls: [{ tool: 'a', args: {}, result: 'full text of 1' }] },
    ]);
  });
});
