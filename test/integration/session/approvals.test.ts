import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import type { SessionHandle } from '../../../src/client/session-handle';
import type { SessionRuleStateView } from '../../../src/session/session-views';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf, outline, toolResultOf } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** Waits until call `callId` is up for approval and returns the rule state showing it. */
function waitForApproval(session: SessionHandle, callId: string): Promise<SessionRuleStateView> {
  return pollUntil(
    () => session.ruleState(),
    (state) => state.pendingApprovals.some((pending) => pending.callId === callId),
  );
}

/**
 * The number of events in the session's history once no workflow task is pending, so a count
 * taken before and after an update compares only what that update wrote.
 */
async function settledEventCount(session: SessionHandle): Promise<number> {
  await pollUntil(
    () => session.workflow.describe(),
    (description) => !description.raw.pendingWorkflowTask,
  );
  return (await readSessionHistory(session)).events.length;
}

/** The message a rejected update carries (the validator's error). */
async function rejectionOf(update: Promise<unknown>): Promise<string> {
  try {
    await update;
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = error instanceof Error ? error.cause : undefined;
    return cause instanceof Error ? cause.message : String(cause);
  }
  throw new Error('the update was accepted');
}

describe('approvals of tool calls', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  const toolsFor = (probe: ToolProbe) => [
    defineProbeTool({ name: 'deploy', probe, concurrency: 'WRITE_EXCLUSIVE', requiresPermission: true }),
  ];

  it('runs an approved call, and rejects unknown and already decided call ids without touching history', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('deploy', { hold: true }, { id: 'deploy_1' }),
      textResponse('Deployed.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('approval-granted'),
          rules: noRules,
          model: { provider: 'scripted', model: 'ops' },
          firstMessage: 'Ship it.',
          limits: { closeWhenIdle: true },
        });
        const waiting = await waitForApproval(session, 'deploy_1');
        expect(waiting.pendingApprovals).toEqual([
          expect.objectContaining({
            callId: 'deploy_1',
            toolName: 'deploy',
            reason: 'deploy requires permission to run.',
          }),
        ]);
        expect(await session.status()).toMatchObject({ status: 'awaiting_approval' });
        // The UI's list (search attributes) shows the session as waiting for a human.
        const listed = await pollUntil(
          () => client.listSessions({ status: 'awaiting_approval' }),
          (sessions) => sessions.some((listing) => listing.sessionId === session.sessionId),
        );
        expect(listed.find((listing) => listing.sessionId === session.sessionId)).toMatchObject({
          status: 'awaiting_approval',
          workflowStatus: 'RUNNING',
        });
        // The UI's current details list the call that waits.
        const metadata = await session.workflow.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
        expect(metadata.currentDetails).toContain('**Waiting for approval**: `deploy` call `deploy_1`');

        const beforeUnknown = await settledEventCount(session);
        expect(await rejectionOf(session.approve('deploy_7'))).toMatch(
          /no call deploy_7 waits for approval; waiting: deploy_1/,
        );
        expect(await settledEventCount(session)).toBe(beforeUnknown);

        await session.approve('deploy_1');
        await probe.started('deploy_1');
        const beforeDuplicate = await settledEventCount(session);
        expect(await rejectionOf(session.deny('deploy_1', 'changed my mind'))).toMatch(
          /call deploy_1 was already decided/,
        );
        expect(await settledEventCount(session)).toBe(beforeDuplicate);
        probe.release('deploy_1');

        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 1 } });
        const transcript = await session.transcript();
        expect(outline(transcript)).toEqual([
          'user:Ship it.',
          'model:deploy#deploy_1',
          'verdict:deploy#deploy_1:allowed',
          'approval:deploy#deploy_1:approved',
          'tool:deploy#deploy_1:ok',
          'model:text',
          'run-end:answered',
        ]);

        const history = await readSessionHistory(session);
        expect(history.acceptedUpdates()).toEqual([
          expect.objectContaining({ name: 'approveToolCall', args: [{ callId: 'deploy_1', approved: true }] }),
        ]);
        expect(history.ofType('WORKFLOW_EXECUTION_UPDATE_COMPLETED')).toHaveLength(1);
        const accepted = history.ofType('WORKFLOW_EXECUTION_UPDATE_ACCEPTED')[0]?.eventId ?? Infinity;
        expect(history.toolActivity('deploy_1').scheduledEventId).toBeGreaterThan(accepted);
        expect(history.toolActivity('deploy_1').closedAs).toBe('completed');
      },
    );
  });

  it('refuses a denied call with the reason, which the model reads', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('deploy', {}, { id: 'deploy_1' }),
      textResponse('Not deploying.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('approval-denied'),
          rules: noRules,
          model: { provider: 'scripted', model: 'ops' },
          firstMessage: 'Ship it.',
          limits: { closeWhenIdle: true },
        });
        await waitForApproval(session, 'deploy_1');
        await session.deny('deploy_1', 'no deploys on a Friday');

        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 0 } });
        expect(probe.runs).toEqual([]);
        const transcript = await session.transcript();
        expect(entriesOf(transcript, 'approval')).toEqual([
          expect.objectContaining({ callId: 'deploy_1', decision: 'denied', reason: 'no deploys on a Friday' }),
        ]);
        expect(toolResultOf(transcript, 'deploy_1')).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
        const seenByModel = model.requests[1]?.messages.find((message) => message.role === 'tool');
        expect(seenByModel).toMatchObject({ callId: 'deploy_1', isError: true });
        expect(seenByModel && 'content' in seenByModel ? seenByModel.content : '').toMatch(
          /APPROVAL_DENIED.*no deploys on a Friday/,
        );

        const history = await readSessionHistory(session);
        expect(history.acceptedUpdates()).toEqual([
          expect.objectContaining({
            args: [{ callId: 'deploy_1', approved: false, reason: 'no deploys on a Friday' }],
          }),
        ]);
        expect(history.toolCallIds()).toEqual([]);
      },
    );
  });

  it('denies a call nobody decides on before the approval timeout, and refuses a late decision', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('deploy', {}, { id: 'deploy_1' }),
      toolCallResponse('check_status', { hold: true }, { id: 'check' }),
      textResponse('Nobody answered.'),
    ]);
    await withSessionWorker(
      {
        connections,
        tools: [...toolsFor(probe), defineProbeTool({ name: 'check_status', probe })],
        scriptedModels: { ops: model },
      },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('approval-timeout'),
          rules: noRules,
          model: { provider: 'scripted', model: 'ops' },
          firstMessage: 'Ship it.',
          limits: { closeWhenIdle: true, approvalTimeoutMs: 1_500 },
        });
        // The session moved on past the timeout; a decision that comes now is refused.
        await probe.started('check');
        expect(await rejectionOf(session.approve('deploy_1'))).toMatch(/call deploy_1 was already decided/);
        probe.release('check');

        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 1 } });
        expect(probe.toolsRun()).toEqual(['check_status']);
        const transcript = await session.transcript();
        expect(entriesOf(transcript, 'approval')).toEqual([
          expect.objectContaining({ callId: 'deploy_1', decision: 'timed_out' }),
        ]);
        expect(toolResultOf(transcript, 'deploy_1')).toMatchObject({ isError: true, code: 'APPROVAL_TIMEOUT' });
        expect(model.requests[1]?.messages.find((message) => message.role === 'tool')).toMatchObject({
          content: expect.stringContaining('APPROVAL_TIMEOUT') as unknown,
        });

        // The wait was a durable timer of the approval timeout, and it fired.
        const history = await readSessionHistory(session);
        const [timer, ...otherTimers] = history.ofType('TIMER_STARTED');
        expect(otherTimers).toEqual([]);
        expect(timer?.attributes['startToFireTimeout']).toMatchObject({ nanos: 500_000_000 });
        expect(String((timer?.attributes['startToFireTimeout'] as { seconds?: unknown } | undefined)?.seconds)).toBe(
          '1',
        );
        expect(history.ofType('TIMER_FIRED')).toHaveLength(1);
        expect(history.acceptedUpdates()).toEqual([]);
        expect(history.toolCallIds()).toEqual(['check']);
      },
    );
  });

  it('denies at once, without waiting, calls that need approval in a non-interactive session', async () => {
    const probe = new ToolProbe();
    const tools = [...toolsFor(probe), defineProbeTool({ name: 'notify', probe, concurrency: 'WRITE_EXCLUSIVE' })];
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'requires_approval', tool: 'notify' }] });
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { id: 'deploy_1', name: 'deploy', args: {} },
        { id: 'notify_1', name: 'notify', args: {} },
      ]),
      textResponse('Cannot deploy.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { ops: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('approval-batch'),
        rules,
        model: { provider: 'scripted', model: 'ops' },
        firstMessage: 'Ship it.',
        interactive: false,
        limits: { closeWhenIdle: true },
      });

      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 0 } });
      expect(probe.runs).toEqual([]);
      const transcript = await session.transcript();
      expect(entriesOf(transcript, 'approval')).toEqual([]);
      // The tool's own `ask` becomes a deny when the call is prepared…
      expect(toolResultOf(transcript, 'deploy_1')).toMatchObject({ isError: true, code: 'PERMISSION_DENIED' });
      expect(toolResultOf(transcript, 'deploy_1').content).toContain('this session is not interactive');
      // …and so does an approval that a rule requires.
      expect(toolResultOf(transcript, 'notify_1')).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
      expect(toolResultOf(transcript, 'notify_1').content).toContain('this session is not interactive');

      const history = await readSessionHistory(session);
      expect(history.ofType('TIMER_STARTED')).toEqual([]);
      expect(history.toolCallIds()).toEqual([]);
    });
  });
});
