import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSupportDeskTools } from '../../../examples/support-desk/support-desk-tools';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { entriesOf, outline, toolResultOf } from '../../helpers/transcript-entries';

const rulesFile = path.resolve(__dirname, '../../../examples/support-desk/support-desk-rules.yaml');

describe('the refund flow on the support desk rules', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('binds a refund to the order whose eligibility said yes, waits for approval, and allows one refund per session', async () => {
    const refunds: string[] = [];
    const model = createScriptedModel([
      toolCallResponse('lookup_customer', { email: 'ada@example.com' }, { id: 'lookup' }),
      toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }, { id: 'check_a' }),
      toolCallResponse('issue_refund', { order_id: 'ORD-1002', amount: 310 }, { id: 'refund_b' }),
      toolCallResponse('check_eligibility', { order_id: 'ORD-1002' }, { id: 'check_b' }),
      toolCallResponse('issue_refund', { order_id: 'ORD-1002', amount: 310 }, { id: 'refund_b_again' }),
      toolCallResponse('issue_refund', { order_id: 'ORD-1001', amount: 42 }, { id: 'refund_a' }),
      toolCallResponse('issue_refund', { order_id: 'ORD-1001', amount: 42 }, { id: 'refund_a_again' }),
      textResponse('Order ORD-1001 was refunded; ORD-1002 is past the refund window.'),
    ]);
    const tools = createSupportDeskTools({ onRefund: (orderId) => refunds.push(orderId) });
    const rules = compileRules(readFileSync(rulesFile, 'utf8'), { file: rulesFile });
    await withSessionWorker({ connections, tools, scriptedModels: { refunds: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('refund-flow'),
        rules,
        model: { provider: 'scripted', model: 'refunds' },
        firstMessage: 'Refund both of my orders, please. I am ada@example.com.',
        limits: { closeWhenIdle: true },
      });

      const waiting = await pollUntil(
        () => session.ruleState(),
        (state) => state.pendingApprovals.length > 0,
      );
      expect(waiting.pendingApprovals).toEqual([
        expect.objectContaining({
          callId: 'refund_a',
          toolName: 'issue_refund',
          input: { order_id: 'ORD-1001', amount: 42 },
        }),
      ]);
      expect(await session.status()).toMatchObject({ status: 'awaiting_approval' });
      expect(refunds).toEqual([]);
      await session.approve('refund_a', 'customer is a regular');

      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 4, blockedCalls: 3 } });
      expect(refunds).toEqual(['ORD-1001']);

      const transcript = await session.transcript();
      expect(outline(transcript).filter((line) => /^(verdict|approval|tool):/.test(line))).toEqual([
        'verdict:lookup_customer#lookup:allowed',
        'tool:lookup_customer#lookup:ok',
        'verdict:check_eligibility#check_a:allowed',
        'tool:check_eligibility#check_a:ok',
        'verdict:issue_refund#refund_b:blocked',
        'tool:issue_refund#refund_b:RULE_BLOCKED',
        'verdict:check_eligibility#check_b:allowed',
        'tool:check_eligibility#check_b:ok',
        'verdict:issue_refund#refund_b_again:blocked',
        'tool:issue_refund#refund_b_again:RULE_BLOCKED',
        'verdict:issue_refund#refund_a:allowed',
        'approval:issue_refund#refund_a:approved',
        'tool:issue_refund#refund_a:ok',
        'verdict:issue_refund#refund_a_again:blocked',
        'tool:issue_refund#refund_a_again:RULE_BLOCKED',
      ]);
      const verdicts = new Map(entriesOf(transcript, 'verdict').map((verdict) => [verdict.callId, verdict]));
      // Eligibility of ORD-1001 does not cover ORD-1002: the model is told to check that order first.
      expect(verdicts.get('refund_b')?.reasons).toEqual([
        expect.objectContaining({ code: 'resource_mismatch', callFirst: ['check_eligibility'] }),
      ]);
      // ORD-1002 was checked, and the check said no.
      expect(verdicts.get('refund_b_again')?.reasons).toEqual([
        expect.objectContaining({ code: 'output_condition_failed' }),
      ]);
      expect(verdicts.get('refund_a')?.reasons).toEqual([]);
      // After the refund, forbids_after blocks another one for the rest of the session.
      expect(verdicts.get('refund_a_again')?.reasons).toEqual([expect.objectContaining({ code: 'forbidden_after' })]);
      expect(toolResultOf(transcript, 'refund_b').content).toMatch(
        /resource_mismatch[\s\S]*Call first: check_eligibility/,
      );
      expect(JSON.parse(toolResultOf(transcript, 'refund_a').content)).toMatchObject({
        order_id: 'ORD-1001',
        amount: 42,
      });
      expect(entriesOf(transcript, 'approval')).toEqual([
        expect.objectContaining({ callId: 'refund_a', decision: 'approved', reason: 'customer is a regular' }),
      ]);

      const state = await session.ruleState();
      expect(state.rules.forbidden).toEqual([expect.objectContaining({ tool: 'issue_refund' })]);
      expect(state.pendingApprovals).toEqual([]);

      const history = await readSessionHistory(session);
      expect(history.toolCallIds()).toEqual(['lookup', 'check_a', 'check_b', 'refund_a']);
      expect(history.acceptedUpdates()).toEqual([
        expect.objectContaining({
          name: 'approveToolCall',
          args: [{ callId: 'refund_a', approved: true, reason: 'customer is a regular' }],
        }),
      ]);
      // The approval arrived before the refund's activity was scheduled.
      const [accepted] = history.ofType('WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
      expect(history.toolActivity('refund_a').scheduledEventId).toBeGreaterThan(accepted?.eventId ?? Infinity);
      // A destructive tool runs at most once: no retries.
      expect(history.toolActivity('refund_a').maximumAttempts).toBe(1);
    });
  });
});
