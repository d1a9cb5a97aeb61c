import { describe, expect, it } from 'vitest';
import { renderFeedEvent } from '../../../src/cli/render/render-feed-event';
import type { FeedEvent, FeedEventBody, ShadowReasonView } from '../../../src/session';

const at = (body: FeedEventBody): FeedEvent => ({ offset: 9, at: 0, run: 1, turn: 2, ...body });

const prerequisite: ShadowReasonView = {
  code: 'prerequisite_not_met',
  message: 'Call check_eligibility (successfully) before issue_refund.',
  callFirst: ['check_eligibility'],
  rule: 'refund-after-check',
};

describe('toolrail follow’s lines for what shadow rules would have done', () => {
  it('names the tools they would hide, each with its reasons and rule, and how many more there are', () => {
    const line = renderFeedEvent(
      at({
        type: 'rule_shadowed',
        kind: 'hidden',
        tools: [{ tool: 'issue_refund', reasons: [prerequisite] }],
        omitted: 4,
      }),
    );
    expect(line).toBe(
      '[turn 2] ◌ shadow rules would hide: issue_refund: [prerequisite_not_met] Call check_eligibility (successfully) before issue_refund. (call first: check_eligibility) (rule refund-after-check) | and 4 more',
    );
  });

  it('says a call runs that they would refuse or put up for approval, and an answer that ends the run they would refuse', () => {
    const refused = at({
      type: 'rule_shadowed',
      kind: 'refused',
      callId: 'c1',
      tool: 'issue_refund',
      reasons: [prerequisite],
    });
    expect(renderFeedEvent(refused)).toBe(
      '[turn 2]   ◌ issue_refund runs; shadow rules would refuse it: [prerequisite_not_met] Call check_eligibility (successfully) before issue_refund. (call first: check_eligibility) (rule refund-after-check)',
    );
    const approval = at({ type: 'rule_shadowed', kind: 'approval', callId: 'c2', tool: 'check', reasons: [] });
    expect(renderFeedEvent(approval)).toBe(
      '[turn 2]   ◌ check runs without a human; a shadow requires_approval rule would ask for approval',
    );
    const end = at({
      type: 'rule_shadowed',
      kind: 'end',
      reasons: [{ code: 'required_before_exit', message: 'Call send_survey before you finish.', rule: 'survey' }],
    });
    expect(renderFeedEvent(end)).toBe(
      '[turn 2] ◌ the answer ends the run; shadow rules would refuse it: [required_before_exit] Call send_survey before you finish. (rule survey)',
    );
  });
});
