import { describe, expect, it } from 'vitest';
import { renderRuleState } from '../../../src/cli/render/render-rule-state';
import type { Reason } from '../../../src/rules';
import type { SessionRuleStateView, SessionStatusView } from '../../../src/session';

const usage = {
  session: { modelCalls: 1, inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 },
  run: { modelCalls: 1, inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 },
};

const status: SessionStatusView = {
  status: 'running_tools',
  lastRunEnd: null,
  lastTool: 'close_case',
  counters: { turns: 4, runs: 1, toolCalls: 3, blockedCalls: 0, continuedAsNew: 0 },
  queuedMessages: 0,
  usage,
};

const forbidden: Reason = {
  code: 'forbidden_after',
  message: 'issue_refund is not allowed after close_case.',
  rule: { kind: 'forbids_after', id: 'no-refund', file: 'rules/desk.yaml', index: 1, path: 'rules[1]', line: 4 },
};
const survey: Reason = {
  code: 'required_before_exit',
  message: 'Call send_survey before you finish.',
  rule: { kind: 'required_before_exit', id: 'survey', file: 'rules/desk.yaml', index: 3, path: 'rules[3]' },
};

function stateWith(rules: Partial<SessionRuleStateView['rules']>): SessionRuleStateView {
  return {
    phase: 'run',
    rules: {
      run: 1,
      turn: 3,
      runTurns: 4,
      ended: null,
      visible: ['close_case', 'issue_refund'],
      hidden: [],
      forbidden: [],
      counts: [],
      sequences: [],
      steps: [],
      completedInRun: [],
      completedInSession: [],
      lastCompleted: 'close_case',
      endCheck: { endsRun: true, reasons: [] },
      ...rules,
    },
    pendingApprovals: [],
    runningCalls: [],
    unavailableTools: [],
    usage,
  };
}

describe('toolrail state with shadow rules', () => {
  it('lists the visible tools shadow rules would hide, and the answer they would refuse, as not enforced', () => {
    const text = renderRuleState(
      's1',
      stateWith({
        shadowHidden: [{ tool: 'issue_refund', reasons: [forbidden] }],
        endCheck: { endsRun: true, reasons: [], shadowRefused: [survey] },
      }),
      status,
    );
    const lines = text.split('\n');
    const at = lines.indexOf('Shadow rules would hide (not enforced: these tools are visible):');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 2]).toMatch(/^ {2}issue_refund +forbidden_after +desk\.yaml#1:4$/);
    expect(lines).toContain('A text answer would end the run now.');
    expect(lines).toContain('Shadow rules would refuse it (not enforced): required_before_exit');
  });

  it('says nothing of shadow rules when they would do nothing', () => {
    expect(renderRuleState('s1', stateWith({}), status)).not.toContain('Shadow');
  });
});
