import { describe, expect, it } from 'vitest';
import { modelFinishDetail, modelFinishOutcome } from '../../../src/session';

describe('modelFinishOutcome', () => {
  it('gives every finish reason its outcome', () => {
    expect(modelFinishOutcome('tool-calls', 2)).toEqual({ kind: 'calls' });
    expect(modelFinishOutcome('stop', 1)).toEqual({ kind: 'calls' });
    expect(modelFinishOutcome('other', 1)).toEqual({ kind: 'calls' });
    expect(modelFinishOutcome('stop', 0)).toEqual({ kind: 'answer' });
    expect(modelFinishOutcome('other', 0)).toEqual({ kind: 'answer' });
    expect(modelFinishOutcome('length', 1)).toEqual({ kind: 'end', reason: 'max_tokens' });
    expect(modelFinishOutcome('length', 0)).toEqual({ kind: 'end', reason: 'max_tokens' });
    expect(modelFinishOutcome('refusal', 0)).toEqual({ kind: 'end', reason: 'refusal' });
    expect(modelFinishOutcome('content-filter', 0)).toEqual({ kind: 'end', reason: 'content_filter' });
    expect(modelFinishOutcome('pause', 0)).toEqual({ kind: 'continue' });
  });

  it('goes by the calls for a response recorded without a finish reason', () => {
    expect(modelFinishOutcome(undefined, 1)).toEqual({ kind: 'calls' });
    expect(modelFinishOutcome(undefined, 0)).toEqual({ kind: 'answer' });
  });

  it('says which calls did not run and why', () => {
    const calls = [{ name: 'create_ticket' }, { name: 'assign_ticket' }];
    expect(modelFinishDetail('max_tokens', { toolCalls: calls, rawFinishReason: 'max_tokens' })).toBe(
      'the output limit cut the response off (max_tokens); 2 proposed calls were not run: create_ticket, assign_ticket',
    );
    expect(modelFinishDetail('refusal', { text: 'I cannot help with that.', toolCalls: [] })).toBe(
      'the model refused: I cannot help with that.',
    );
  });
});
