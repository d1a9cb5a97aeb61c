import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallRecordName } from '../../../activities/tool-call-record';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { SessionStatusView } from '../../../src/session/session-views';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { defineTool } from '../../../src/tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { FlakyContentStore } from '../../helpers/flaky-content-store';
import { pollUntil } from '../../helpers/poll-until';
import { untilRunsEnded } from '../../helpers/until-runs-ended';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });
/** The sessions check every half second whether their store is back (the default is 5 s). */
const limits = { storeRetryIntervalMs: 500 };

describe('a content store that fails under a session (fault-injecting store)', () => {
  let connections: HarnessConnections;
  let directory: string;
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-flaky-'));
  });
  afterAll(async () => {
    await connections?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reports a run-once call whose result write failed right after it ran as having run, and runs it once', async () => {
    const store = new FlakyContentStore(new DirectoryContentStore(directory));
    let refunds = 0;
    const refund = defineTool({
      name: 'issue_refund',
      description: 'Refunds an order (runs at most once).',
      inputSchema: z.object({ order: z.string() }),
      requiresPermission: false,
      execute: ({ order }) => {
        refunds += 1;
        // The store fails the moment the refund took effect: the activity has to store its result.
        store.fail('connection reset by peer');
        return Promise.resolve(`refund R-${refunds} issued for ${order}`);
      },
    });
    const model = createScriptedModel([
      toolCallResponse('issue_refund', { order: 'ORD-1' }, { id: 'refund-1' }),
      textResponse('Refunded.'),
    ]);
    await withSessionWorker(
      { connections, tools: [refund], scriptedModels: { refunder: model }, contentStore: store },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('write-fails-after-tool'),
          rules: noRules,
          model: { provider: 'scripted', model: 'refunder' },
          firstMessage: 'Refund ORD-1',
          interactive: false,
          limits,
        });
        // The activity keeps trying: once it has been refused a few times, the store comes back.
        await pollUntil(
          () => Promise.resolve(store.refused),
          (refused) => refused >= 3,
        );
        store.heal();
        expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
        expect(refunds).toBe(1);
        const told = model.requests[1]?.messages.find((message) => message.role === 'tool');
        expect(told).toMatchObject({ role: 'tool', content: 'refund R-1 issued for ORD-1', isError: false });
        const transcript = await session.transcript();
        expect(transcript.find((entry) => entry.kind === 'tool')).toMatchObject({ isError: false });
        // The run-once record was written, and reads back (hash-checked) as the call's outcome.
        const record = await store.getRecord(session.sessionId, toolCallRecordName(0, 'refund-1'));
        expect(new TextDecoder().decode(record)).toContain('refund R-1 issued for ORD-1');
      },
    );
  });

  it('keeps a message sent while the store is down, shows waiting_for_store with its error, and answers it once the store is back', async () => {
    const store = new FlakyContentStore(new DirectoryContentStore(directory));
    const model = createScriptedModel([textResponse('Hello.'), textResponse('Still here.')]);
    await withSessionWorker(
      { connections, tools: [], scriptedModels: { chat: model }, contentStore: store },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('down-while-idle'),
          rules: noRules,
          model: { provider: 'scripted', model: 'chat' },
          firstMessage: 'Hi',
          limits,
        });
        await pollUntil(
          () => session.status(),
          (status) => status.lastRunEnd === 'answered',
        );
        store.fail('connect ECONNREFUSED 127.0.0.1:5432', { reads: true });
        await session.send('Are you there?');
        const waiting = await pollUntil(
          () => session.status(),
          (status: SessionStatusView) => status.status === 'waiting_for_store',
        );
        expect(waiting.storeProblem).toMatchObject({ code: 'STORE_UNAVAILABLE', store: store.description });
        expect(waiting.storeProblem?.message).toContain('ECONNREFUSED');
        expect((await session.ruleState()).storeProblem?.code).toBe('STORE_UNAVAILABLE');
        // It keeps checking, and keeps waiting: never failing.
        await pollUntil(
          () => session.status(),
          (status) => status.status === 'waiting_for_store' && store.refused >= 4,
        );
        expect((await session.status()).status).toBe('waiting_for_store');
        store.heal();
        await untilRunsEnded(session, 2);
        const answered = await session.status();
        expect(answered).toMatchObject({ status: 'idle', lastRunEnd: 'answered' });
        expect(answered.storeProblem).toBeUndefined();
        const transcript = await session.transcript({ full: true });
        expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
          'Hi',
          'Are you there?',
        ]);
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed' });
      },
    );
  });
});
