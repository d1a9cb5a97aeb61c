import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSupportDeskTools } from '../../examples/support-desk/support-desk-tools';
import type { SessionHandle } from '../../src/client/session-handle';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../src/models';
import type { ScriptedModel } from '../../src/models';
import { formatDiagnostic } from '../../src/rules';
import { loadRuleSet } from '../../src/rules-files';
import type { SessionRuleStateView, SessionStatusView } from '../../src/session/session-views';
import { connectToHarness, uniqueName } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import { pollUntil } from '../helpers/poll-until';
import { startBackgroundWorker } from './support/background-worker';
import { endSession } from './support/end-session';
import type { BackgroundWorker } from './support/background-worker';
import { harnessConnectionArgs, runCli } from './support/run-cli';
import { normalizeSpace, readCurrentDetailsInUi, runQueryInUi } from './support/temporal-ui';
import type { WorkflowPage } from './support/temporal-ui';
import { withChromium } from './support/with-chromium';

const rulesFile = path.join(__dirname, '..', '..', 'examples', 'support-desk', 'support-desk-rules.yaml');
const customer = 'ada@example.com';

/**
 * The support desk's mistakes, one turn each (like the demo's script), ending in a model call
 * that thinks for ten minutes, so the session stays mid-run, its rule state still, while the test
 * looks at it:
 *  0. check_eligibility before lookup_customer (refused: prerequisite);
 *  1. lookup_customer + search_knowledge_base (the search counts toward its limit of 2);
 *  2. check_eligibility of ORD-1001 (eligible);
 *  3. issue_refund of ORD-1002 (refused: eligibility was checked for another order);
 *  4. issue_refund of ORD-1001: waits for a human (first checkpoint);
 *  5. after the refund ran (it forbids another): a slow answer (second checkpoint).
 */
function slowSupportDeskScript(): ScriptedModel {
  return createScriptedModel([
    toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }),
    parallelToolCallsResponse([
      { name: 'lookup_customer', args: { email: customer } },
      { name: 'search_knowledge_base', args: { query: 'refund policy for damaged items' } },
    ]),
    toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }),
    toolCallResponse('issue_refund', { order_id: 'ORD-1002', amount: 310 }),
    toolCallResponse('issue_refund', { order_id: 'ORD-1001', amount: 42 }),
    textResponse('Refunded; let me think about the ticket.', { delayMs: 600_000 }),
  ]);
}

/**
 * The rule state in the Temporal Web UI, in a real headless Chromium: the `ruleState` query run
 * from the Queries tab shows exactly what the client's query and `toolrail state --json` return,
 * and the current details summarise it. Checked at two points of one support-desk session (the
 * demo's tools and rules, a scripted model): while a refund waits for approval, and after it ran
 * while the model thinks. The screenshots land in `test-artifacts/rule-state-in-ui/`.
 */
describe('the rule state in the Temporal Web UI', () => {
  let connections: HarnessConnections;
  let worker: BackgroundWorker;
  let session: SessionHandle;
  let workflow: WorkflowPage;

  beforeAll(async () => {
    connections = await connectToHarness();
    worker = await startBackgroundWorker({
      connections,
      tools: createSupportDeskTools({ searchDelayMs: 300 }),
      scriptedModels: { 'slow-support-desk': slowSupportDeskScript() },
    });
    const loaded = await loadRuleSet({ paths: [rulesFile] });
    if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));
    session = await worker.client.startSession({
      sessionId: uniqueName('ui-rule-state'),
      rules: loaded.rules,
      model: { provider: 'scripted', model: 'slow-support-desk' },
      firstMessage: 'ada@example.com says order ORD-1001 arrived broken. Please refund it and keep a ticket of it.',
      limits: { modelTimeoutMs: 900_000 },
    });
    workflow = {
      ui: inject('temporalUiAddress'),
      namespace: inject('temporalNamespace'),
      workflowId: session.sessionId,
      runId: (await session.workflow.describe()).runId,
    };
  });

  afterAll(async () => {
    // The session ends the way a user ends it (interrupt the slow model call, then end) while its
    // worker still runs; then the worker stops.
    if (session) {
      await session.interrupt().catch(() => undefined);
      // Let the cancelled model call report back before the session ends (no "activity not found").
      await pollUntil(
        async () => (await session.workflow.describe()).raw.pendingActivities?.length ?? 0,
        (pending) => pending === 0,
        { timeoutMs: 30_000, intervalMs: 200 },
      ).catch(() => undefined);
      await endSession(session);
    }
    await worker?.stop();
    await connections?.close();
  });

  it('while a refund waits for approval, then after it ran: the Queries tab, the client and `toolrail state` show the same rule state', async () => {
    // Turns 0-4 of the script: a refused check_eligibility, lookup + search, an eligibility check,
    // a refused refund of the wrong order, then the refund of ORD-1001, which waits for a human.
    const state = await pollUntil(
      () => session.ruleState(),
      (s) => s.pendingApprovals.length > 0,
      { timeoutMs: 60_000 },
    );
    const status = await session.status();
    expect(status.status).toBe('awaiting_approval');
    expect(status.counters.blockedCalls).toBe(2);
    expect(state.pendingApprovals.map((approval) => approval.toolName)).toEqual(['issue_refund']);
    expect(state.rules.hidden).toContainEqual(
      expect.objectContaining({
        tool: 'close_ticket',
        reasons: [expect.objectContaining({ code: 'prerequisite_not_met', callFirst: ['create_ticket'] })],
      }),
    );
    expect(state.rules.counts).toContainEqual(
      expect.objectContaining({ tool: 'search_knowledge_base', count: 1, limit: 2 }),
    );

    await expectSameRuleStateEverywhere(state, status, 'rule-state-in-ui/awaiting-approval');

    // After the refund ran, mid-run: the forbidden tool and the count show the same way.
    const [pending] = state.pendingApprovals;
    await session.approve(pending?.callId ?? '', 'approved by the e2e test');
    // The refund runs (and forbids another); the next model call takes ten minutes.
    const afterStatus = await pollUntil(
      () => session.status(),
      (s) => s.status === 'thinking' && s.counters.toolCalls === 4,
      { timeoutMs: 60_000 },
    );
    const after = await session.ruleState();
    expect(after.pendingApprovals).toEqual([]);
    expect(after.rules.forbidden.map(({ tool }) => tool)).toEqual(['issue_refund']);
    const refund = after.rules.hidden.find(({ tool }) => tool === 'issue_refund');
    expect(refund?.reasons.map(({ code }) => code)).toEqual(['forbidden_after']);
    expect(after.rules.counts).toContainEqual(
      expect.objectContaining({ tool: 'search_knowledge_base', count: 1, limit: 2 }),
    );

    await expectSameRuleStateEverywhere(after, afterStatus, 'rule-state-in-ui/after-refund');
  });

  /**
   * Runs `ruleState` from the UI's Queries tab and from `toolrail state --json` (a child process),
   * and expects both to equal `expected` (the client's answer); then reads the current details.
   */
  async function expectSameRuleStateEverywhere(
    expected: SessionRuleStateView,
    status: SessionStatusView,
    artifact: string,
  ): Promise<void> {
    const cli = await runCli(['state', session.sessionId, '--json', ...harnessConnectionArgs()]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const fromCli: unknown = JSON.parse(cli.stdout);

    await withChromium(async (page) => {
      // The Queries tab shows the query's one page (it fits: next is null); the client and the CLI put pages together.
      const fromUi = await runQueryInUi(page, workflow, 'ruleState', `${artifact}-queries`);
      expect(fromUi).toEqual({ ...expected, next: null });
      expect(fromCli).toEqual(expected);
      // Nothing moved while we looked: the client still gets the same answer.
      expect(await session.ruleState()).toEqual(expected);

      const details = await readCurrentDetailsInUi(
        page,
        workflow,
        `status ${status.status}`,
        `${artifact}-current-details`,
      );
      const rules = expected.rules;
      expect(details).toContain(`toolrail session · status ${status.status} · turn ${status.counters.turns}`);
      expect(details).toContain(`${status.counters.blockedCalls} blocked`);
      expect(details).toContain(`Visible tools (${rules.visible.length}): ${rules.visible.join(', ') || 'none'}`);
      expect(details).toContain(`Hidden tools (${rules.hidden.length})`);
      // The summary names the first reason of each hidden tool (it lists up to six; these sessions hide fewer).
      for (const { tool, reasons } of rules.hidden.slice(0, 6)) {
        const first = reasons[0];
        const callFirst = first?.callFirst?.length ? `, call first: ${first.callFirst.join(', ')}` : '';
        expect(details).toContain(normalizeSpace(`${tool} (${first?.code ?? 'hidden'}${callFirst})`));
      }
      for (const approval of expected.pendingApprovals) {
        expect(details).toContain(
          `Waiting for approval: ${approval.toolName} call ${approval.callId}: ${approval.reason}`,
        );
      }
    });
  }
});
