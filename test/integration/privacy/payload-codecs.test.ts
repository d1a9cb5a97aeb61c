import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@temporalio/client';
import type { WorkerPlugin } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AesGcmCodec } from '../../../examples/payload-codec/aes-gcm-codec';
import { createCodecServer } from '../../../examples/payload-codec/codec-server';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { createExternalStorage } from '../../../src/store/content-storage-driver';
import type { ContentStore } from '../../../src/store/content-store';
import { ContentStoreError } from '../../../src/store/content-store-error';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { PostgresContentStore, contentTable } from '../../../src/store/postgres-content-store';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { createWorker } from '../../../src/worker/create-worker';
import { runCli } from '../../e2e/support/run-cli';
import { privateSessionModel, firstMessage, lookUpRecord, secretMarkers } from '../../fixtures/codec/private-session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';

const repoRoot = path.join(__dirname, '..', '..', '..');
const codecModule = path.join(repoRoot, 'examples', 'payload-codec', 'codec-module.ts');
const sessionModule = path.join(repoRoot, 'test', 'fixtures', 'codec', 'private-session.ts');
const codecWorkerScript = path.join(repoRoot, 'test', 'fixtures', 'codec', 'codec-worker.ts');
const rulesYaml = 'toolrail: 1\nrules:\n  - { kind: max_count, tool: look_up_record, limit: 3, scope: session }\n';
const execFileAsync = promisify(execFile);

/** A running worker process and everything it logged. */
interface WorkerProcess {
  log(): string;
  stop(): Promise<void>;
}

/** The markers of `markers` found in `text`, as written or inside any base64 string it holds. */
function markersInText(text: string, markers: readonly string[]): string[] {
  const found = new Set(markers.filter((marker) => text.includes(marker)));
  for (const [candidate] of text.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)) {
    const decoded = Buffer.from(candidate, 'base64');
    for (const marker of markers) if (decoded.includes(marker)) found.add(marker);
  }
  return [...found].sort();
}

/** The markers of `markers` found in raw bytes. */
function markersInBytes(chunks: readonly Uint8Array[], markers: readonly string[]): string[] {
  return markers.filter((marker) => chunks.some((bytes) => Buffer.from(bytes).includes(marker))).sort();
}

/** Whether `bytes` are content toolrail stored through payload codecs (they start with its header). */
function isEncodedContent(bytes: Uint8Array): boolean {
  return Buffer.from(bytes).subarray(0, 18).toString('latin1') === '\u0000toolrail/payload\n';
}

/** Every file under `root`, read. */
function filesUnder(root: string): Buffer[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name)));
}

describe('a session whose client and worker encrypt with a payload codec', () => {
  let connections: HarnessConnections;
  let workDirectory: string;
  let bundlePath: string;
  let rulesFile: string;
  let admin: pg.Pool;
  const children = new Set<ChildProcess>();
  const codecKey = randomBytes(32).toString('base64');
  const codec = new AesGcmCodec(new Map([['key-1', Buffer.from(codecKey, 'base64')]]), 'key-1');
  const address = (): string => inject('temporalAddress');
  const connectionArgs = (taskQueue: string): string[] => [
    '--address',
    address(),
    '--namespace',
    connections.namespace,
    '--task-queue',
    taskQueue,
  ];

  beforeAll(async () => {
    connections = await connectToHarness();
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-codec-'));
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
    rulesFile = path.join(workDirectory, 'rules.yaml');
    writeFileSync(rulesFile, rulesYaml);
    admin = new pg.Pool({ connectionString: inject('postgresUrl'), max: 1 });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await admin?.end();
    await connections?.close();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  /** Starts a worker process running `args`, logging to a buffer, and waits until its output holds `ready`. */
  async function startProcess(args: string[], env: Record<string, string>, ready: string): Promise<WorkerProcess> {
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TOOLRAIL_'))),
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await Promise.race([
      pollUntil(
        () => Promise.resolve(log),
        (text) => text.includes(ready),
        { timeoutMs: 120_000, intervalMs: 200 },
      ),
      exited.then(() => {
        throw new Error(`worker exited before it was ready:\n${log}`);
      }),
    ]);
    return {
      log: () => log,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  }

  /** A toolrail client with the codec and the workers' store, as a library user configures one. */
  function encryptingClient(store: ContentStore, taskQueue: string): ToolrailClient {
    const client = new Client({
      connection: connections.client.connection,
      namespace: connections.namespace,
      dataConverter: { payloadCodecs: [codec], externalStorage: createExternalStorage(store) },
    });
    return new ToolrailClient({ client, taskQueue, contentStore: store });
  }

  /** Runs the private session to its answer and returns its id and markers. */
  async function runPrivateSession(
    toolrail: ToolrailClient,
    prefix: string,
  ): Promise<{ sessionId: string; markers: ReturnType<typeof secretMarkers>; first: string }> {
    const id = randomBytes(6).toString('hex');
    const markers = secretMarkers(id);
    const session = await toolrail.startSession({
      sessionId: uniqueName(prefix),
      rules: compileRules(rulesYaml),
      model: { provider: 'scripted', model: 'private-session' },
      firstMessage: firstMessage(id),
    });
    await pollUntil(
      () => session.status(),
      (status) => status.status === 'idle' && status.lastRunEnd === 'answered',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    return { sessionId: session.sessionId, markers, first: firstMessage(id) };
  }

  /** Everything the server keeps of a session, fetched without any codec: raw history, description, the CLI's JSON. */
  async function serverRecords(sessionId: string): Promise<{ raw: Uint8Array[]; cliJson: string }> {
    const plain = new Client({ connection: connections.client.connection, namespace: connections.namespace });
    const handle = plain.workflow.getHandle(sessionId);
    const history = await handle.fetchHistory();
    const described = await connections.client.connection.workflowService.describeWorkflowExecution({
      namespace: connections.namespace,
      execution: { workflowId: sessionId },
    });
    const listed = await connections.client.connection.workflowService.listWorkflowExecutions({
      namespace: connections.namespace,
      query: `WorkflowId = '${sessionId}'`,
    });
    const { stdout } = await execFileAsync(
      inject('temporalCliPath'),
      [
        'workflow',
        'show',
        '--workflow-id',
        sessionId,
        '--address',
        address(),
        '--namespace',
        connections.namespace,
        '--output',
        'json',
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return {
      raw: [
        temporal.api.history.v1.History.encode(history).finish(),
        temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse.encode(described).finish(),
        temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse.encode(listed).finish(),
      ],
      cliJson: stdout,
    };
  }

  it('keeps every marker out of the history, the search attributes, the directory store and the log of `toolrail worker --codec-module`', async () => {
    const taskQueue = uniqueName('codec-cli-worker');
    const storeRoot = path.join(workDirectory, 'directory-store');
    const codecEnv = { CODEC_KEY: codecKey, TOOLRAIL_CONTENT_STORE: storeRoot };
    const worker = await startProcess(
      [
        'bin/toolrail.cjs',
        'worker',
        '--module',
        sessionModule,
        '--codec-module',
        codecModule,
        '--log-level',
        'DEBUG',
        ...connectionArgs(taskQueue),
      ],
      codecEnv,
      `on task queue ${taskQueue}`,
    );
    const store = new DirectoryContentStore(storeRoot);
    try {
      const toolrail = encryptingClient(store, taskQueue);
      const { sessionId, markers, first } = await runPrivateSession(toolrail, 'codec-directory');
      const cli = (args: string[], env: Record<string, string> = {}): ReturnType<typeof runCli> =>
        runCli([...args, ...connectionArgs(taskQueue)], { env: { ...codecEnv, ...env }, timeoutMs: 120_000 });
      const withCodec = { TOOLRAIL_CODEC_MODULE: codecModule };

      // The CLI with the codec module: a second message, and the session read back whole.
      expect(await cli(['send', sessionId, `${markers.second} too`], withCodec)).toMatchObject({ code: 0 });
      await pollUntil(
        () => toolrail.getSession(sessionId).status(),
        (status) => status.counters.runs >= 2 && status.status === 'idle',
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      const transcript = await cli(['transcript', sessionId], withCodec);
      expect(transcript).toMatchObject({ code: 0, stderr: '' });
      for (const marker of [markers.first, markers.args, markers.result, markers.answer, markers.second, markers.reply])
        expect(transcript.stdout).toContain(marker);
      const full = await cli(['transcript', sessionId, '--json'], withCodec);
      expect(JSON.parse(full.stdout)).toContainEqual(expect.objectContaining({ kind: 'user', text: first }));
      const state = await cli(['state', sessionId, '--json'], withCodec);
      expect(state.code).toBe(0);
      expect((JSON.parse(state.stdout) as { rules: { counts: unknown[] } }).rules.counts).toContainEqual(
        expect.objectContaining({ tool: 'look_up_record', count: 1 }),
      );
      const sessions = await cli(['sessions', '--json'], withCodec);
      expect(JSON.parse(sessions.stdout)).toContainEqual(expect.objectContaining({ sessionId, status: 'idle' }));
      // What-if: the session as a trace, simulated offline with other rules.
      const traceFile = path.join(workDirectory, `${sessionId}.trace.json`);
      expect(await cli(['transcript', sessionId, '--trace', traceFile], withCodec)).toMatchObject({ code: 0 });
      expect(readFileSync(traceFile, 'utf8')).toContain(markers.result);
      const strictRules = path.join(workDirectory, 'strict.yaml');
      writeFileSync(strictRules, 'toolrail: 1\ndefault: block\nrules: []\n');
      const simulated = await runCli(['simulate', '--rules', strictRules, '--trace', traceFile]);
      expect(simulated.code).toBe(0);
      const verdicts = simulated.stdout
        .trim()
        .split('\n')
        .flatMap((line) => (JSON.parse(line) as { calls?: { tool: string; verdict: string }[] }).calls ?? []);
      expect(verdicts).toEqual([expect.objectContaining({ tool: 'look_up_record', verdict: 'blocked' })]);

      // The CLI without the codec, or with another key: refused, saying why.
      for (const command of [
        ['transcript', sessionId],
        ['state', sessionId],
        ['transcript', sessionId, '--trace'],
      ]) {
        const refused = await cli(command);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('binary/encrypted');
        expect(refused.stderr).toContain('--codec-module FILE or TOOLRAIL_CODEC_MODULE');
        expect(markersInText(refused.stdout + refused.stderr, Object.values(markers))).toEqual([]);
      }
      const otherKey = await cli(['transcript', sessionId], {
        ...withCodec,
        CODEC_KEY: randomBytes(32).toString('base64'),
      });
      expect(otherKey.code).toBe(1);
      expect(otherKey.stderr).toContain(`the payload codecs of ${codecModule} cannot decode`);
      expect(otherKey.stderr).toContain('other codecs or another key');

      // Nowhere in plaintext: the server's records, the store's files (claims included), the worker's log.
      const all = Object.values(markers);
      const server = await serverRecords(sessionId);
      expect(markersInBytes(server.raw, all)).toEqual([]);
      expect(markersInText(server.cliJson, all)).toEqual([]);
      const files = filesUnder(storeRoot);
      // Six messages (the first one stored by the client before the start), at least.
      expect(files.filter((bytes) => isEncodedContent(bytes)).length).toBeGreaterThanOrEqual(6);
      expect(markersInBytes(files, all)).toEqual([]);
      expect(worker.log()).toContain(sessionId);
      expect(markersInText(worker.log(), all)).toEqual([]);

      // The codec server decodes for the temporal CLI (and the Web UI) what the server holds.
      const codecServer = createCodecServer([codec], { uiOrigins: ['http://localhost:8233'] });
      await new Promise<void>((resolve) => codecServer.listen(0, '127.0.0.1', resolve));
      try {
        const endpoint = `http://127.0.0.1:${(codecServer.address() as AddressInfo).port}`;
        const { stdout } = await execFileAsync(
          inject('temporalCliPath'),
          [
            'workflow',
            'show',
            '--workflow-id',
            sessionId,
            '--address',
            address(),
            '--namespace',
            connections.namespace,
            '--codec-endpoint',
            endpoint,
            '--output',
            'json',
          ],
          { maxBuffer: 64 * 1024 * 1024 },
        );
        expect(markersInText(stdout, all)).toEqual(
          [markers.args, markers.answer, markers.result, markers.first, markers.second, markers.reply].sort(),
        );
        const preflight = await fetch(`${endpoint}/decode`, {
          method: 'OPTIONS',
          headers: { Origin: 'http://localhost:8233', 'Access-Control-Request-Method': 'POST' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
        expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Namespace');
        const foreign = await fetch(`${endpoint}/decode`, {
          method: 'OPTIONS',
          headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
        });
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await new Promise((resolve) => codecServer.close(resolve));
      }

      // Retention works on encrypted sessions as on any other.
      // Once the session closed (prune never removes an open one's content).
      await toolrail.getSession(sessionId).end();
      await toolrail.getSession(sessionId).result();
      // The live feed, followed by the CLI to the session's end: with the codec module, and refused without.
      const followed = await cli(['follow', sessionId, '--json'], withCodec);
      expect(followed).toMatchObject({ code: 0 });
      expect(followed.stdout).toContain(markers.answer);
      expect(followed.stdout).toContain('"type":"session_ended"');
      const unfollowed = await cli(['follow', sessionId]);
      expect(unfollowed.code).not.toBe(0);
      expect(unfollowed.stderr).toContain('--codec-module FILE or TOOLRAIL_CODEC_MODULE');
      expect(markersInText(unfollowed.stdout + unfollowed.stderr, Object.values(markers))).toEqual([]);
      const pruned = await cli(['store', 'prune', '--session', sessionId], withCodec);
      expect(pruned).toMatchObject({ code: 0 });
      expect(pruned.stdout).toMatch(/^deleted 1 session\(s\), [1-9]\d* bytes/);
    } finally {
      await worker.stop();
      await store.close();
    }
  });

  it('keeps every marker and the store password out of the history, PostgreSQL and the log of a worker configured in code', async () => {
    const taskQueue = uniqueName('codec-library-worker');
    const password = `ZQXpw${randomBytes(6).toString('hex')}`;
    // The test server trusts local connections: the password is ignored, but it is in every URL given.
    const storeUrl = inject('postgresUrl').replace('postgres@', `postgres:${password}@`);
    expect(storeUrl).toContain(password);
    const worker = await startProcess(
      ['--import', 'tsx', codecWorkerScript],
      {
        TOOLRAIL_TEST_ADDRESS: address(),
        TOOLRAIL_TEST_NAMESPACE: connections.namespace,
        TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
        TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
        TOOLRAIL_CONTENT_STORE: storeUrl,
        CODEC_KEY: codecKey,
      },
      'ready\n',
    );
    const store = new PostgresContentStore(storeUrl);
    try {
      const toolrail = encryptingClient(store, taskQueue);
      const { sessionId, markers } = await runPrivateSession(toolrail, 'codec-postgres');
      const session = toolrail.getSession(sessionId);
      // A second message over 256 KiB: its update travels as an External Storage claim in the store.
      await session.send(`${markers.second} too. ${'More background. '.repeat(17_000)}`);
      await pollUntil(
        () => session.status(),
        (status) => status.counters.runs >= 2 && status.status === 'idle',
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      // The library client reads the session whole, and exports it as a trace.
      const texts = JSON.stringify(await session.transcript({ full: true }));
      for (const marker of [markers.first, markers.result, markers.answer, markers.second, markers.reply])
        expect(texts).toContain(marker);
      expect(JSON.stringify(await session.exportTrace())).toContain(markers.result);

      const cli = (args: string[], env: Record<string, string> = {}): ReturnType<typeof runCli> =>
        runCli([...args, ...connectionArgs(taskQueue)], {
          env: { CODEC_KEY: codecKey, TOOLRAIL_CONTENT_STORE: storeUrl, ...env },
          timeoutMs: 120_000,
        });
      const transcript = await cli(['transcript', sessionId], { TOOLRAIL_CODEC_MODULE: codecModule });
      expect(transcript).toMatchObject({ code: 0, stderr: '' });
      expect(transcript.stdout).toContain(markers.reply);
      const refused = await cli(['transcript', sessionId]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--codec-module FILE or TOOLRAIL_CODEC_MODULE');
      expect(refused.stdout + refused.stderr).not.toContain(password);

      const all = [...Object.values(markers), password];
      const server = await serverRecords(sessionId);
      expect(markersInBytes(server.raw, all)).toEqual([]);
      expect(markersInText(server.cliJson, all)).toEqual([]);
      const rows = (
        await admin.query<{ session_id: string; key: string; bytes: Buffer }>(
          `SELECT session_id, key, bytes FROM ${contentTable}`,
        )
      ).rows;
      const sessionRows = rows.filter((row) => row.session_id === sessionId);
      expect(sessionRows.filter((row) => isEncodedContent(row.bytes)).length).toBeGreaterThanOrEqual(6);
      // The claim: the update's payload as Temporal encoded it (with the codec), stored as it is.
      const claims = sessionRows.filter((row) => !isEncodedContent(row.bytes) && !row.key.startsWith('record:'));
      expect(claims.length).toBeGreaterThanOrEqual(1);
      for (const claim of claims)
        expect(new TextDecoder().decode(temporal.api.common.v1.Payload.decode(claim.bytes).metadata?.encoding)).toBe(
          'binary/encrypted',
        );
      expect(
        markersInBytes(
          rows.map((row) => row.bytes),
          all,
        ),
      ).toEqual([]);
      expect(markersInText(rows.map((row) => `${row.session_id} ${row.key}`).join('\n'), all)).toEqual([]);
      expect(worker.log()).toContain(sessionId);
      expect(markersInText(worker.log(), all)).toEqual([]);
    } finally {
      await worker.stop();
      await store.close();
    }
  });

  it('encodes the store with the codecs a worker plugin adds to its data converter', async () => {
    const storeRoot = path.join(workDirectory, 'plugin-store');
    const store = new DirectoryContentStore(storeRoot);
    const taskQueue = uniqueName('codec-plugin');
    const encryption: WorkerPlugin = {
      name: 'encryption',
      configureWorker: (options) => ({
        ...options,
        dataConverter: { ...options.dataConverter, payloadCodecs: [codec] },
      }),
    };
    const worker = await createWorker({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      tools: [lookUpRecord],
      scriptedModels: { 'private-session': privateSessionModel() },
      contentStore: store,
      workflowBundle: { code: readFileSync(bundlePath, 'utf8') },
      workerOptions: { plugins: [encryption] },
    });
    try {
      const { markers } = await worker.runUntil(runPrivateSession(encryptingClient(store, taskQueue), 'codec-plugin'));
      const files = filesUnder(storeRoot);
      const encoded = files.filter((bytes) => isEncodedContent(bytes));
      expect(encoded.length).toBeGreaterThanOrEqual(4);
      expect(markersInBytes(files, Object.values(markers))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('finds the same markers with the same searches in a session without a codec, and reads it with a codec only to say it cannot', async () => {
    const storeRoot = path.join(workDirectory, 'plain-store');
    const store = new DirectoryContentStore(storeRoot);
    try {
      await withSessionWorker(
        {
          connections,
          tools: [lookUpRecord],
          scriptedModels: { 'private-session': privateSessionModel() },
          contentStore: store,
        },
        async ({ client, taskQueue }) => {
          const { sessionId, markers } = await runPrivateSession(client, 'codec-control');
          const all = Object.values(markers).filter((marker) => marker !== markers.second && marker !== markers.reply);
          const server = await serverRecords(sessionId);
          // Each search finds what is there in plaintext: the history holds previews, arguments, the
          // retried call's failure and the results; the store the messages, the first one's claim too.
          const inHistory = [markers.first, markers.args, markers.error, markers.result, markers.answer];
          expect(markersInBytes(server.raw, all)).toEqual(expect.arrayContaining(inHistory));
          expect(markersInText(server.cliJson, all)).toEqual(expect.arrayContaining(inHistory));
          expect(markersInBytes(filesUnder(storeRoot), all)).toEqual(
            expect.arrayContaining([markers.first, markers.args, markers.result, markers.answer]),
          );

          // Content written without a codec, read by a client with one: refused, naming the key and the store.
          const reader = encryptingClient(store, taskQueue).getSession(sessionId);
          const failure = await reader.transcript({ full: true }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(failure).toBeInstanceOf(ContentStoreError);
          expect((failure as ContentStoreError).code).toBe('CONTENT_UNDECODABLE');
          expect((failure as Error).message).toMatch(
            new RegExp(
              `^Content [0-9a-f]{64} of session "${sessionId}" in ${store.description} cannot be read: it was stored without payload codecs`,
            ),
          );
          const cli = await runCli(['transcript', sessionId, ...connectionArgs(taskQueue)], {
            env: { CODEC_KEY: codecKey, TOOLRAIL_CONTENT_STORE: storeRoot, TOOLRAIL_CODEC_MODULE: codecModule },
          });
          expect(cli.code).toBe(0);
          expect(cli.stderr).toContain(`showing previews: Content`);
          expect(cli.stderr).toContain(`in ${store.description} cannot be read: it was stored without payload codecs`);
        },
      );
    } finally {
      await store.close();
    }
  });

  it('makes a session whose worker cannot decode its content wait (never fail), naming the key and the store', async () => {
    const storeRoot = path.join(workDirectory, 'switched-store');
    const store = new DirectoryContentStore(storeRoot);
    const taskQueue = uniqueName('codec-switch');
    try {
      // Written without codecs, then served by a worker with codecs (as when codecs are introduced).
      const { sessionId, markers } = await withSessionWorker(
        {
          connections,
          tools: [lookUpRecord],
          scriptedModels: { 'private-session': privateSessionModel() },
          contentStore: store,
          taskQueue,
        },
        ({ client }) => runPrivateSession(client, 'codec-switch'),
      );
      // The worker's replies are encoded: a client with the codecs reads them (and the plain history).
      const session = encryptingClient(store, taskQueue).getSession(sessionId);
      const encrypting = await createWorker({
        connection: connections.nativeConnection,
        namespace: connections.namespace,
        taskQueue,
        tools: [lookUpRecord],
        scriptedModels: { 'private-session': privateSessionModel() },
        contentStore: store,
        workflowBundle: { code: readFileSync(bundlePath, 'utf8') },
        workerOptions: { dataConverter: { payloadCodecs: [codec] }, stickyQueueScheduleToStartTimeout: 1_000 },
      });
      const waiting = await encrypting.runUntil(async () => {
        await session.send(`${markers.second} too`);
        return pollUntil(
          () => session.status(),
          (status) => status.status === 'waiting_for_store',
          { timeoutMs: 60_000, intervalMs: 500 },
        );
      });
      expect(waiting.storeProblem).toMatchObject({ code: 'CONTENT_UNDECODABLE', store: store.description });
      const key = waiting.storeProblem?.key ?? '';
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(waiting.storeProblem?.message).toContain(
        `Content ${key} of session "${sessionId}" in ${store.description}`,
      );
      expect(waiting.storeProblem?.message).toContain('it was stored without payload codecs');
      await session.workflow.terminate('test over');
    } finally {
      await store.close();
    }
  });
});
