import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import type { FeedEvent } from '../../../src/session';
import { sessionDirectoryName } from '../../../src/store/directory-content-store';
import { harnessConnectionArgs, runCli } from '../../e2e/support/run-cli';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { testContentDirectory, testContentStore, withSessionWorker } from '../../helpers/session-worker';
import { untilRunsEnded } from '../../helpers/until-runs-ended';

const noRules = compileRules({ toolrail: 1, rules: [] });
/** Over the 256 KiB from which a payload would travel as an External Storage claim. */
const bigFirstMessage = `Read this brief. ${'lorem ipsum dolor sit amet '.repeat(11_500)}`;

describe('content a session needs is missing or corrupt', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections?.close();
  });

  it('says which key is missing from which store and what to do, keeps taking messages, and goes on once the content is restored', async () => {
    const store = testContentStore();
    const sessionId = uniqueName('missing-content');
    const sessionDirectory = path.join(testContentDirectory(), 'sessions', sessionDirectoryName(sessionId));
    const backup = `${sessionDirectory}.backup`;
    const model = createScriptedModel(
      ['Read it.', 'Still read it.', 'Again.', 'Once more.'].map((text) => textResponse(text)),
    );
    // Each worker below is a new one (an empty cache) on the session's task queue.
    const worker = { connections, tools: [], scriptedModels: { reader: model }, taskQueue: uniqueName('missing') };
    const limits = { storeRetryIntervalMs: 500 };
    const { session, ref } = await withSessionWorker(worker, async ({ client }) => {
      const started = await client.startSession({
        sessionId,
        rules: noRules,
        model: { provider: 'scripted', model: 'reader' },
        firstMessage: bigFirstMessage,
        limits,
      });
      const [first] = await untilRunsEnded(started, 1);
      return { session: started, ref: first?.kind === 'user' ? first.ref : undefined };
    });
    if (ref === undefined) throw new Error('the first message has no reference');
    // The first message is in the store, by reference: the workflow's input is small.
    const history = await session.workflow.fetchHistory();
    const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(input?.data?.byteLength ?? 0).toBeLessThan(64 * 1024);
    expect(input?.externalPayloads ?? []).toEqual([]);

    // Deleted by hand while the session is open (as a prune on main did), then a new worker (no cache).
    cpSync(sessionDirectory, backup, { recursive: true });
    await store.deleteSession(sessionId);
    try {
      await withSessionWorker(worker, async () => {
        const sent = await runCli(['send', sessionId, 'Are you still there?', ...harnessConnectionArgs()]);
        expect(sent.code).toBe(0);
        const waiting = await pollUntil(
          () => session.status(),
          (status) => status.status === 'waiting_for_store',
        );
        expect(waiting.storeProblem).toMatchObject({ code: 'CONTENT_MISSING', store: store.description });
        const key = waiting.storeProblem?.key ?? '';
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(waiting.storeProblem?.message).toContain(key);
        expect(waiting.storeProblem?.message).toContain(store.description);
        expect(waiting.storeProblem?.message).toContain('Restore');

        // Every command still answers, and says why the session waits.
        const again = await runCli(['send', sessionId, 'Hello?', ...harnessConnectionArgs()]);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain(`session ${sessionId} waits for its content store`);
        expect(again.stdout).toContain('CONTENT_MISSING');
        const state = await runCli(['state', sessionId, ...harnessConnectionArgs()]);
        expect(state.code).toBe(0);
        expect(state.stdout).toContain(key);
        const transcript = await runCli(['transcript', sessionId, ...harnessConnectionArgs()]);
        expect(transcript.code).toBe(0);
        expect(transcript.stderr).toContain('showing previews');
        expect(transcript.stdout).toContain('Read this brief.');

        // Restored from the backup: the session goes on by itself and answers both messages.
        cpSync(backup, sessionDirectory, { recursive: true });
        await untilRunsEnded(session, 3);
        expect((await session.status()).storeProblem).toBeUndefined();
        // The live feed showed the wait, why, and its end, in order.
        const seen: FeedEvent[] = [];
        for await (const event of session.events()) {
          seen.push(event);
          if (event.type === 'run_ended' && event.run === 3) break;
        }
        const waits = seen.flatMap((event) => (event.type === 'store_waiting' ? [event] : []));
        expect(waits[0]?.problem).toMatchObject({ code: 'CONTENT_MISSING', key, store: store.description });
        const back = seen.find((event) => event.type === 'store_back' && event.wait === waits[0]?.wait);
        expect(back?.offset).toBeGreaterThan(waits.at(-1)?.offset ?? Infinity);
        expect(seen.map((event) => event.offset)).toEqual(seen.map((_, index) => index));
        const request = model.requests.at(-1);
        expect(request?.messages[0]).toMatchObject({ role: 'user', text: bigFirstMessage });
        expect(request?.messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual([
          bigFirstMessage,
          'Are you still there?',
          'Hello?',
        ]);
      });

      // Corrupt on disk, then read by a new worker: waited on as corrupt, until restored whole.
      const file = path.join(sessionDirectory, ref.key);
      writeFileSync(file, 'tampered');
      await withSessionWorker(worker, async () => {
        await session.send('One more');
        const corrupt = await pollUntil(
          () => session.status(),
          (status) => status.status === 'waiting_for_store',
        );
        expect(corrupt.storeProblem).toMatchObject({ code: 'CONTENT_CORRUPT', key: ref.key });
        cpSync(path.join(backup, ref.key), file);
        await untilRunsEnded(session, 4);
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed' });
      });
    } finally {
      rmSync(backup, { recursive: true, force: true });
    }
  });
});

describe('an External Storage claim in a session history, deleted by hand', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections?.close();
  });

  it('makes the CLI say why the session cannot run (the claim, the store), not only that a query or update failed, and goes on once the claim is restored', async () => {
    const store = testContentStore();
    const model = createScriptedModel(['One.', 'Two.', 'Three.'].map((text) => textResponse(text)));
    const worker = { connections, tools: [], scriptedModels: { claims: model }, taskQueue: uniqueName('claims') };
    const sessionId = uniqueName('deleted-claim');
    await withSessionWorker(worker, async ({ client }) => {
      const session = await client.startSession({
        sessionId,
        rules: noRules,
        model: { provider: 'scripted', model: 'claims' },
        firstMessage: 'Hi',
      });
      await untilRunsEnded(session, 1);
      // Over 256 KiB: the update's payload travels as a claim on the store; its history holds the claim.
      await session.send(`A long one: ${'x'.repeat(300_000)}`);
      await untilRunsEnded(session, 2);
    });
    const sessionDirectory = path.join(testContentDirectory(), 'sessions', sessionDirectoryName(sessionId));
    const backup = `${sessionDirectory}.backup`;
    cpSync(sessionDirectory, backup, { recursive: true });
    await store.deleteSession(sessionId);
    try {
      await withSessionWorker(worker, async ({ client }) => {
        // Replaying the history needs the claim, which the session read before: the workflow task fails
        // (the store holds nothing of the claim: it waits for it), and every command says why.
        const why = `cannot run: its workflow task fails: Waiting for the content store to read an External Storage claim (the store holds nothing of this claim): Content `;
        const sent = await runCli(['send', sessionId, 'Hello?', ...harnessConnectionArgs()]);
        expect(sent.code).toBe(1);
        expect(sent.stderr).toContain(`session ${sessionId} ${why}`);
        expect(sent.stderr).toContain(`is not in ${store.description}`);
        const state = await runCli(['state', sessionId, ...harnessConnectionArgs()]);
        expect(state.code).toBe(1);
        expect(state.stderr).toContain(`session ${sessionId} ${why}`);
        const listed = await runCli(['sessions', ...harnessConnectionArgs()]);
        expect(listed.stdout).toContain(`session ${sessionId} ${why}`);

        // The claim restored from a backup: the next try of the workflow task replays, the session answers and ends.
        cpSync(backup, sessionDirectory, { recursive: true });
        const session = client.getSession(sessionId);
        // Until Temporal tries the failed workflow task again, an update is refused at once (not accepted, not lost).
        await pollUntil(
          () =>
            session.send('Back again?').then(
              () => true,
              (error: unknown) => {
                if (String((error as { cause?: unknown }).cause).includes('Workflow Task in failed state'))
                  return false;
                throw error;
              },
            ),
          (accepted) => accepted,
          { timeoutMs: 120_000, intervalMs: 1_000 },
        );
        const transcript = await pollUntil(
          () => session.transcript(),
          (entries) =>
            entries.at(-1)?.kind === 'run-end' &&
            entries.some((entry) => entry.kind === 'user' && entry.text === 'Back again?'),
          { timeoutMs: 120_000 },
        );
        // Every message the session holds is answered, the last one the model read is the one sent now.
        expect(transcript.filter((entry) => entry.kind === 'run-end').length).toBe(
          transcript.filter((entry) => entry.kind === 'user').length,
        );
        expect(model.requests.at(-1)?.messages.at(-1)).toMatchObject({ role: 'user', text: 'Back again?' });
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed' });
      });
    } finally {
      rmSync(backup, { recursive: true, force: true });
    }
  }, 240_000);
});
