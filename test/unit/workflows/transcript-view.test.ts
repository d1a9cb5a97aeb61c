import { describe, expect, it } from 'vitest';
import type { Reason } from '../../../src/rules';
import { renderTranscriptEntry } from '../../../src/cli/render/render-transcript-entry';
import type { SessionState } from '../../../workflows/session-state';
import { transcriptView } from '../../../workflows/transcript-view';

/** The transcript reads only the turn of the state: the one it stamps each entry with. */
const atTurn = (turnIndex: number): SessionState => ({ turnIndex }) as SessionState;

const forbidden: Reason = {
  code: 'forbidden_after',
  message: 'issue_refund is not allowed after close_case completed. Do not call it again in this session.',
  rule: { kind: 'forbids_after', id: 'no-refund-after-close', file: 'rules.yaml', index: 1, path: 'rules[1]' },
};

describe('the transcript of what shadow rules would have done', () => {
  it('notes each shadow verdict at its turn, with the reasons and the rule that gave them', () => {
    const transcript = transcriptView([]);
    transcript.onEvent(
      { type: 'rule_shadowed', kind: 'hidden', tools: [{ tool: 'issue_refund', reasons: [forbidden] }] },
      atTurn(3),
    );
    transcript.onEvent(
      { type: 'rule_shadowed', kind: 'refused', callId: 'c7', tool: 'issue_refund', reasons: [forbidden] },
      atTurn(3),
    );
    transcript.onEvent(
      { type: 'rule_shadowed', kind: 'approval', callId: 'c8', tool: 'check', reasons: [] },
      atTurn(3),
    );
    transcript.onEvent({ type: 'rule_shadowed', kind: 'end', reasons: [forbidden] }, atTurn(4));
    const reason = { code: 'forbidden_after', message: forbidden.message, rule: 'no-refund-after-close' };
    expect(transcript.entries()).toEqual([
      { kind: 'shadow', turn: 3, shadow: { kind: 'hidden', tools: [{ tool: 'issue_refund', reasons: [reason] }] } },
      { kind: 'shadow', turn: 3, shadow: { kind: 'refused', callId: 'c7', tool: 'issue_refund', reasons: [reason] } },
      { kind: 'shadow', turn: 3, shadow: { kind: 'approval', callId: 'c8', tool: 'check', reasons: [] } },
      { kind: 'shadow', turn: 4, shadow: { kind: 'end', reasons: [reason] } },
    ]);
    expect(transcript.entries().map(renderTranscriptEntry)).toEqual([
      `[turn 3] ◌ shadow rules would hide: issue_refund: [forbidden_after] ${forbidden.message} (rule no-refund-after-close)`,
      `[turn 3]   ◌ issue_refund runs; shadow rules would refuse it: [forbidden_after] ${forbidden.message} (rule no-refund-after-close)`,
      '[turn 3]   ◌ check runs without a human; a shadow requires_approval rule would ask for approval',
      `[turn 4] ◌ the answer ends the run; shadow rules would refuse it: [forbidden_after] ${forbidden.message} (rule no-refund-after-close)`,
    ]);
  });

  it('lists at most 100 hidden tools in one entry and counts the rest', () => {
    const transcript = transcriptView([]);
    const tools = Array.from({ length: 101 }, (_, index) => ({ tool: `tool_${index}`, reasons: [forbidden] }));
    transcript.onEvent({ type: 'rule_shadowed', kind: 'hidden', tools, ended: 'no_tool_allowed' }, atTurn(0));
    const [entry] = transcript.entries();
    expect(entry).toMatchObject({ kind: 'shadow', omitted: 1, shadow: { kind: 'hidden', ended: 'no_tool_allowed' } });
    expect(entry?.kind === 'shadow' && entry.shadow.kind === 'hidden' && entry.shadow.tools.length).toBe(100);
    expect(entry && renderTranscriptEntry(entry)).toMatch(
      /^\[turn 0\] ◌ shadow rules would hide \(that would leave no tool: no_tool_allowed\): tool_0: .* \| and 1 more$/,
    );
  });
});
