import { describe, expect, it } from 'vitest';
import { packTranscriptEntry, unpackTranscriptEntry } from '../../../src/session';
import type { TranscriptEntry } from '../../../src/session';

const preview = 'page 3: lorem ipsum dolor sit amet; '.repeat(5);
const toolResult: TranscriptEntry = {
  kind: 'tool',
  turn: 3,
  callId: 'call_3',
  tool: 'read_page',
  isError: false,
  content: preview,
  ref: { key: 'a'.repeat(64), bytes: 1_088, preview },
};
const userMessage: TranscriptEntry = {
  kind: 'user',
  turn: 0,
  text: 'Read the document.',
  ref: { key: 'b'.repeat(64), bytes: 40, preview: 'Read the document.' },
};

describe('a transcript entry as continue-as-new carries it', () => {
  it('leaves out a tool result or user message text that is its preview, and reads it back whole', () => {
    for (const entry of [toolResult, userMessage]) {
      const packed = packTranscriptEntry(entry);
      expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(entry).length - 15);
      expect(unpackTranscriptEntry(packed)).toEqual(entry);
    }
    expect(packTranscriptEntry(toolResult)).not.toHaveProperty('content');
    expect(packTranscriptEntry(userMessage)).not.toHaveProperty('text');
  });

  it("keeps a text that differs from its preview (the workflow's own results, a longer message)", () => {
    const refusal: TranscriptEntry = { ...toolResult, isError: true, code: 'RULE_VIOLATION', content: 'refused: no' };
    const long: TranscriptEntry = { ...userMessage, text: `${userMessage.text} And then summarise it.` };
    for (const entry of [refusal, long]) {
      expect(packTranscriptEntry(entry)).toEqual(entry);
      expect(unpackTranscriptEntry(packTranscriptEntry(entry))).toEqual(entry);
    }
  });

  it('reads entries carried whole, as earlier versions carried them, as they are', () => {
    const notice: TranscriptEntry = { kind: 'notice', turn: 1, text: 'a notice' };
    const withoutRef: TranscriptEntry = { kind: 'user', turn: 0, text: 'hi' };
    for (const entry of [toolResult, userMessage, notice, withoutRef])
      expect(unpackTranscriptEntry(entry)).toEqual(entry);
    expect(packTranscriptEntry(withoutRef)).toEqual(withoutRef);
  });
});
