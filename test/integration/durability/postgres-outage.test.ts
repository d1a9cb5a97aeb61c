import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SessionHandle } from '../../../src/client/session-handle';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { SessionStatusView } from '../../../src/session/session-views';
import { PostgresContentStore } from '../../../src/store/postgres-content-store';
import { defineTool } from '../../../src/tools';
import { harnessConnectionArgs, runCli } from '../../e2e/support/run-cli';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { startPostgres } from '../../harness/start-postgres';
import type { TestPostgres } from '../../harness/start-postgres';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { untilRunsEnded } from '../../helpers/until-runs-ended';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });
/** Longer than the ten attempts (about 55 s) the workflow's own writes had before it failed. */
const outageMs = 65_000;
/** A password PostgreSQL (trust auth) ignores, so the test can check it is never shown. */
const password = 'hunter2-never-shown';

async function currentDetails(session: SessionHandle): Promise<string> {
  const metadata = await session.workflow.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

describe('PostgreSQL stopped under running sessions for longer than the old retry window', () => {
  let connections: HarnessConnections;
  let postgres: TestPostgres;
  beforeAll(async () => {
    connections = await connectToHarness();
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    await connections?.close();
  });

  it('pauses a session in a tool call and an idle one that gets a message; both go on, nothing lost, the tool ran once', async () => {
    const url = postgres.url.replace('postgres@', `postgres:${password}@`);
    const store = new PostgresContentStore(url);
    let refunds = 0;
    let releaseRefund = (): void => undefined;
    let refundStartedNow = (): void => undefined;
    const refundStarted = new Promise<void>((resolve) => (refundStartedNow = resolve));
    const refund = defineTool({
      name: 'issue_refund',
      description: 'Refunds an order (runs at most once).',
      inputSchema: z.object({ order: z.string() }),
      requiresPermission: false,
      timeoutMs: 10_000,
      execute: async ({ order }) => {
        refunds += 1;
        refundStartedNow();
        await new Promise<void>((resolve) => (releaseRefund = resolve));
        return `refund R-${refunds} issued for ${order}`;
      },
    });
    const refunder = createScriptedModel([
      toolCallResponse('issue_refund', { order: 'ORD-7' }, { id: 'refund-7' }),
      textResponse('Refunded ORD-7.'),
    ]);
    const chat = createScriptedModel([textResponse('Hello.'), textResponse('Yes, still here.')]);
    try {
      await withSessionWorker(
        { connections, tools: [refund], scriptedModels: { refunder, chat }, contentStore: store },
        async ({ client }) => {
          const limits = { storeRetryIntervalMs: 500 };
          const inTool = await client.startSession({
            sessionId: uniqueName('pg-outage-tool'),
            rules: noRules,
            model: { provider: 'scripted', model: 'refunder' },
            firstMessage: 'Refund ORD-7',
            interactive: false,
            limits,
          });
          const idle = await client.startSession({
            sessionId: uniqueName('pg-outage-idle'),
            rules: noRules,
            model: { provider: 'scripted', model: 'chat' },
            firstMessage: 'Hi',
            limits,
          });
          await refundStarted;
          await pollUntil(
            () => idle.status(),
            (status) => status.lastRunEnd === 'answered',
          );

          await postgres.pause();
          const stoppedAt = Date.now();
          releaseRefund(); // the refund takes effect while PostgreSQL is down
          const sent = await runCli(['send', idle.sessionId, 'Are you there?', ...harnessConnectionArgs()]);
          expect(sent.stderr).toBe('');
          expect(sent.code).toBe(0);

          // Both sessions wait for the store and say so, for as long as it is down; neither fails.
          const bothWaiting = (statuses: SessionStatusView[]): boolean =>
            statuses.every((status) => status.status === 'waiting_for_store');
          const [toolStatus, idleStatus] = await pollUntil(
            () => Promise.all([inTool.status(), idle.status()]),
            bothWaiting,
            { timeoutMs: 90_000, intervalMs: 250 },
          );
          for (const status of [toolStatus, idleStatus]) {
            expect(status?.storeProblem).toMatchObject({ code: 'STORE_UNAVAILABLE', store: store.description });
            expect(status?.storeProblem?.message).toContain('ECONNREFUSED');
            expect(JSON.stringify(status)).not.toContain(password);
          }
          expect((await idle.ruleState()).storeProblem?.code).toBe('STORE_UNAVAILABLE');
          expect(await currentDetails(idle)).toContain('Waiting for the content store');
          const described = await idle.workflow.describe();
          expect(described.typedSearchAttributes.get({ name: 'ToolrailStatus', type: 'KEYWORD' })).toBe(
            'waiting_for_store',
          );
          const state = await runCli(['state', idle.sessionId, ...harnessConnectionArgs()]);
          expect(state.code).toBe(0);
          expect(state.stdout).toContain('status waiting_for_store');
          expect(state.stdout).toContain(`Waiting for the content store`);
          expect(state.stdout).toContain(store.description);
          expect(state.stdout).not.toContain(password);
          const listed = await pollUntil(
            () => runCli(['sessions', '--status', 'waiting_for_store', ...harnessConnectionArgs()]),
            (result) => result.stdout.includes(idle.sessionId) && result.stdout.includes(inTool.sessionId),
          );
          expect(listed.stdout).toContain(`session ${idle.sessionId} waits for its content store`);

          // Longer than the old retry window: every check along the way finds both sessions still waiting.
          await pollUntil(
            async () => {
              const statuses = await Promise.all([inTool.status(), idle.status()]);
              expect(bothWaiting(statuses)).toBe(true);
              return Date.now() - stoppedAt;
            },
            (downFor) => downFor > outageMs,
            { timeoutMs: outageMs + 30_000, intervalMs: 1_000 },
          );
          await postgres.resume();

          expect(await inTool.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
          expect(refunds).toBe(1);
          const told = refunder.requests[1]?.messages.find((message) => message.role === 'tool');
          expect(told).toMatchObject({ role: 'tool', content: 'refund R-1 issued for ORD-7', isError: false });
          await untilRunsEnded(idle, 2);
          const answered = await idle.status();
          expect(answered).toMatchObject({ status: 'idle', lastRunEnd: 'answered' });
          expect(answered.storeProblem).toBeUndefined();
          const transcript = await idle.transcript({ full: true });
          expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
            'Hi',
            'Are you there?',
          ]);
          expect(chat.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', text: 'Are you there?' });
          await idle.end();
          expect(await idle.result()).toMatchObject({ status: 'completed' });
        },
      );
    } finally {
      await store.close();
    }
  }, 240_000);
});
