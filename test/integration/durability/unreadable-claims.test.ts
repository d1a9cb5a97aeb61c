import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { WorkflowHandle } from '@temporalio/client';
import { StorageDriverClaim } from '@temporalio/common';
import { encodeReferencePayload } from '@temporalio/common/lib/internal-non-workflow';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import type { ContentStore } from '../../../src/store/content-store';
import { createExternalStorage } from '../../../src/store/content-storage-driver';
import { DirectoryContentStore, sessionDirectoryName } from '../../../src/store/directory-content-store';
import { PostgresContentStore } from '../../../src/store/postgres-content-store';
import { freePort } from '../../../src/devserver/free-port';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { harnessConnectionArgs, runCli } from '../../e2e/support/run-cli';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { startPostgres } from '../../harness/start-postgres';
import type { TestPostgres } from '../../harness/start-postgres';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { testContentDirectory, testContentStore, withSessionWorker } from '../../helpers/session-worker';
import { entriesOf } from '../../helpers/transcript-entries';
import { untilRunsEnded } from '../../helpers/until-runs-ended';

const noRules = compileRules({ toolrail: 1, rules: [] });
const model = { provider: 'scripted' as const, model: 'chat' };
/** 300 KB of text: over Temporal's 256 KiB External Storage threshold, under the sessions' 1 MiB message limit. */
const big = (label: string): string => `${label}: ${'x'.repeat(300_000)}`;

/** Temporal's client with toolrail's External Storage on `store`: what it sends over 256 KiB is a claim there. */
function externalStorageClient(connections: HarnessConnections, store: ContentStore): Client {
  return new Client({
    connection: connections.client.connection,
    namespace: connections.namespace,
    dataConverter: { externalStorage: createExternalStorage(store) },
  });
}

/** The files of the directory store holding a session's claims: its content over 256 KiB. */
function claimFiles(sessionId: string): string[] {
  const directory = path.join(testContentDirectory(), 'sessions', sessionDirectoryName(sessionId));
  return readdirSync(directory)
    .map((name) => path.join(directory, name))
    .filter((file) => statSync(file).isFile() && statSync(file).size > 256 * 1024);
}

/** How many workflow tasks of the workflow's history failed (a task that fails again and again counts once). */
async function failedWorkflowTasks(handle: WorkflowHandle): Promise<number> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).filter((event) => event.workflowTaskFailedEventAttributes).length;
}

/**
 * A directory store that, once armed, loses the content of the next External Storage claim written
 * to it: deleted right after the driver wrote it and its `stored` record, as a hand would.
 */
class ClaimLosingStore extends DirectoryContentStore {
  loseNextClaim = false;
  /** The keys of the claims' contents it lost. */
  readonly lostClaims: string[] = [];
  #lastPut: { sessionId: string; key: string } | undefined;

  override async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
    await super.put(sessionId, key, bytes);
    this.#lastPut = { sessionId, key };
  }

  override async putRecord(sessionId: string, name: string, bytes: Uint8Array): Promise<boolean> {
    const written = await super.putRecord(sessionId, name, bytes);
    const last = this.#lastPut;
    if (this.loseNextClaim && /^external-storage-claim .* stored$/.test(name) && last?.sessionId === sessionId) {
      this.loseNextClaim = false;
      rmSync(path.join(this.root, 'sessions', sessionDirectoryName(sessionId), last.key));
      this.lostClaims.push(last.key);
    }
    return written;
  }
}

describe('External Storage claims a worker can never read', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections?.close();
  });

  it('ends a session whose start input is a claim with its content gone, naming the claim; no workflow task fails, and the history replays the same once the content is back', async () => {
    const store = testContentStore();
    const taskQueue = uniqueName('claims');
    const sessionId = uniqueName('claim-start');
    // No worker yet: the start input's claim is written now, and its content deleted before a worker reads it.
    const handle = await externalStorageClient(connections, store).workflow.start('agentSession', {
      taskQueue,
      workflowId: sessionId,
      args: [{ rules: noRules, model, firstMessage: big('first') }],
    });
    const [file] = claimFiles(sessionId);
    if (file === undefined) throw new Error('the start input was not a claim');
    const bytes = readFileSync(file);
    rmSync(file);
    const chat = createScriptedModel([textResponse('Never asked.')]);
    const failure = await withSessionWorker({ connections, tools: [], scriptedModels: { chat }, taskQueue }, () =>
      handle.result().then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toMatchObject({ type: 'InvalidSessionInput', nonRetryable: true });
    expect(cause?.message).toContain(
      `the start input is an External Storage claim that cannot be read (CONTENT_MISSING): its content (key ${path.basename(file)} of session "${sessionId}") is not in the content store`,
    );
    expect(chat.requests).toEqual([]);
    expect(await failedWorkflowTasks(handle)).toBe(0);

    // The content restored: the first read decided, so the closed session replays as it ran.
    writeFileSync(file, bytes);
    const workflowBundle = await bundleSessionWorkflows();
    const externalStorage = createExternalStorage(store);
    await expect(
      Worker.runReplayHistory({ workflowBundle, dataConverter: { externalStorage } }, await handle.fetchHistory()),
    ).resolves.toBeUndefined();
  });

  it('drops a signal and refuses an update whose claims lost their content, and a claim of another driver, each saying why; the session goes on, on a new worker too once the content is back', async () => {
    const store = testContentStore();
    const chat = createScriptedModel(['Hello.', 'Still here.', 'Yes.'].map((text) => textResponse(text)));
    const worker = { connections, tools: [], scriptedModels: { chat }, taskQueue: uniqueName('claims') };
    const sessionId = uniqueName('claim-messages');
    await withSessionWorker(worker, async ({ client }) => {
      await untilRunsEnded(await client.startSession({ sessionId, rules: noRules, model, firstMessage: 'Hi' }), 1);
    });
    const external = externalStorageClient(connections, store).workflow.getHandle(sessionId);

    // No worker: each claim is written now and read later, by the next worker.
    await external.signal('userMessage', { text: big('signal') });
    const [signalFile] = claimFiles(sessionId);
    if (signalFile === undefined) throw new Error('the signal was not a claim');
    const signalBytes = readFileSync(signalFile);
    rmSync(signalFile);
    const updated = external.executeUpdate('sendUserMessage', { args: [{ text: big('update') }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const [updateFile] = await pollUntil(
      () => Promise.resolve(claimFiles(sessionId)),
      (files) => files.length === 1,
    );
    rmSync(updateFile ?? '');
    // A client whose External Storage has a driver toolrail's has not (e.g. S3): the worker gets its claim.
    const foreign = encodeReferencePayload({
      driverName: 's3',
      claim: new StorageDriverClaim({ bucket: 'sessions', key: 'message-1' }),
      sizeBytes: 300_000,
    });
    await connections.client.workflowService.signalWorkflowExecution({
      namespace: connections.namespace,
      workflowExecution: { workflowId: sessionId },
      signalName: 'userMessage',
      input: { payloads: [foreign] },
      identity: 'test',
      requestId: randomUUID(),
    });

    await withSessionWorker(worker, async ({ client }) => {
      const session = client.getSession(sessionId);
      const refused = await updated;
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect(String((refused as WorkflowUpdateFailedError).cause?.message)).toContain(
        `the payload is an External Storage claim that cannot be read (CONTENT_MISSING): its content (key ${path.basename(updateFile ?? '')} of session "${sessionId}") is not in the content store`,
      );
      const notices = await pollUntil(
        () => session.transcript().then((transcript) => entriesOf(transcript, 'notice').map((entry) => entry.text)),
        (texts) => texts.length === 2,
      );
      expect(notices[0]).toBe(
        `[toolrail] dropped a userMessage signal: the payload is an External Storage claim that cannot be read (CONTENT_MISSING): its content (key ${path.basename(signalFile)} of session "${sessionId}") is not in the content store: it was deleted before a worker read it; userMessage takes { text: string }`,
      );
      expect(notices[1]).toContain(
        `[toolrail] dropped a userMessage signal: the payload is an External Storage claim that cannot be read (DRIVER_UNKNOWN): it names External Storage driver "s3", which toolrail's External Storage does not have`,
      );
      await session.send('Are you there?');
      await untilRunsEnded(session, 2);
    });

    // The signal's content restored; a new worker replays the history (its cache is empty): the signal stays dropped.
    writeFileSync(signalFile, signalBytes);
    await withSessionWorker(worker, async ({ client }) => {
      const session = client.getSession(sessionId);
      await session.send('And now?');
      await untilRunsEnded(session, 3);
      await session.end();
      expect(await session.result()).toMatchObject({ status: 'completed', counters: { runs: 3 } });
      const users = chat.requests.at(-1)?.messages.filter((message) => message.role === 'user');
      expect(users?.map((message) => message.text)).toEqual(['Hi', 'Are you there?', 'And now?']);
    });
    const handle = connections.client.workflow.getHandle(sessionId);
    expect(await failedWorkflowTasks(handle)).toBe(0);

    // The closed session replays the same with its store; with the store down it cannot replay, and says why.
    const workflowBundle = await bundleSessionWorkflows();
    const history = await handle.fetchHistory();
    await expect(
      Worker.runReplayHistory(
        { workflowBundle, dataConverter: { externalStorage: createExternalStorage(store) } },
        history,
      ),
    ).resolves.toBeUndefined();
    const down = new PostgresContentStore(`postgres://toolrail@127.0.0.1:${await freePort()}/content`);
    const replayedWhileDown = Worker.runReplayHistory(
      { workflowBundle, dataConverter: { externalStorage: createExternalStorage(down) } },
      history,
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    const error = await replayedWhileDown;
    await down.close();
    expect(error).not.toBeInstanceOf(DeterminismViolationError);
    expect(String(error)).toContain('Waiting for the content store to read an External Storage claim');
  });

  it('fails a model call whose result is a claim that lost its content, naming it, and the session goes on; no workflow task fails', async () => {
    const store = new ClaimLosingStore(mkdtempSync(path.join(os.tmpdir(), 'toolrail-claims-')));
    const chat = createScriptedModel([textResponse(big('answer')), textResponse('A short answer.')]);
    const worker = { connections, tools: [], scriptedModels: { chat }, contentStore: store };
    try {
      await withSessionWorker(worker, async ({ client }) => {
        // The model's 300 KB answer comes back from its activity as a claim, whose content goes before the workflow reads it.
        store.loseNextClaim = true;
        const session = await client.startSession({
          sessionId: uniqueName('claim-result'),
          rules: noRules,
          model,
          firstMessage: 'Hi',
        });
        const [ended] = entriesOf(await untilRunsEnded(session, 1), 'run-end');
        expect(store.lostClaims).toHaveLength(1);
        expect(ended).toMatchObject({ reason: 'model_error' });
        expect(ended?.detail).toBe(
          `the result of activity callModel is an External Storage claim that cannot be read (CONTENT_MISSING): its content (key ${store.lostClaims[0]} of session "${session.sessionId}") is not in the content store: it was deleted before a worker read it`,
        );
        await session.send('Again, please');
        expect(entriesOf(await untilRunsEnded(session, 2), 'run-end')[1]).toMatchObject({ reason: 'answered' });
        expect(await failedWorkflowTasks(session.workflow)).toBe(0);
      });
    } finally {
      rmSync(store.root, { recursive: true, force: true });
    }
  });
});

describe('an External Storage claim read while PostgreSQL is down', () => {
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

  it('fails the workflow task once, says the session waits for its content store to read a claim, and takes the message once the store is back', async () => {
    const store = new PostgresContentStore(postgres.url);
    const chat = createScriptedModel([textResponse('Hello.'), textResponse('Got the long one.')]);
    const worker = {
      connections,
      tools: [],
      scriptedModels: { chat },
      taskQueue: uniqueName('claims'),
      contentStore: store,
    };
    const sessionId = uniqueName('claim-store-down');
    try {
      await withSessionWorker(worker, async ({ client }) => {
        await untilRunsEnded(await client.startSession({ sessionId, rules: noRules, model, firstMessage: 'Hi' }), 1);
      });
      // Written while the store is up; read by the next worker while it is down.
      await externalStorageClient(connections, store)
        .workflow.getHandle(sessionId)
        .signal('userMessage', {
          text: big('long'),
        });
      await postgres.pause();
      await withSessionWorker(worker, async ({ client }) => {
        const session = client.getSession(sessionId);
        const why = await pollUntil(
          () => session.workflowTaskFailure(),
          (failure) => failure !== undefined,
        );
        expect(why).toMatch(
          /^Waiting for the content store to read an External Storage claim: Content store postgres:.* is unavailable/,
        );
        const state = await runCli(['state', sessionId, ...harnessConnectionArgs()]);
        expect(state.code).toBe(1);
        expect(state.stderr).toContain(
          `session ${sessionId} cannot run: its workflow task fails: Waiting for the content store to read an External Storage claim`,
        );

        await postgres.resume();
        // Queries fail until Temporal's next try of the workflow task, which reads the claim.
        await pollUntil(
          () => session.transcript().catch(() => []),
          (entries) => entries.filter((entry) => entry.kind === 'run-end').length === 2,
          { timeoutMs: 120_000, intervalMs: 500 },
        );
        expect(chat.requests.at(-1)?.messages.at(-1)).toMatchObject({ role: 'user', text: big('long') });
        expect(await session.workflowTaskFailure()).toBeUndefined();
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed', counters: { runs: 2 } });
      });
      // The outage failed one workflow task in the history; Temporal's later tries of it are not written there.
      expect(await failedWorkflowTasks(connections.client.workflow.getHandle(sessionId))).toBe(1);
    } finally {
      await store.close();
    }
  }, 240_000);
});
