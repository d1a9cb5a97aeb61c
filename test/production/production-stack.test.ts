import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import ts from 'typescript';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExternalStorage,
  openContentStore,
  SessionStatus,
  toolrailSearchAttributes,
  ToolrailClient,
} from 'toolrail';
import type { ContentStore, SessionHandle, SessionStatusView } from 'toolrail';
import { startProductionStack } from '../harness/stack/start-stack';
import type { ProductionStack, StackWorker } from '../harness/stack/start-stack';
import { compileRules } from '../helpers/compile-rules';
import { pollUntil } from '../helpers/poll-until';
import { orderDeskRulesYaml, readExecutionLogs } from './fixtures/order-desk';
import type { ExecutionLogEntry } from './fixtures/order-desk';

const run = promisify(execFile);

/** Where the tier's worker module lands in each worker's image directory. */
const moduleDirectory = 'stack-test';
const workerModule = `${moduleDirectory}/stack-worker-module.js`;

/** How many sessions run through each fault at once. */
const sessionsPerPhase = 3;

/** A bound for a stuck session, not a timing assertion. */
const sessionTimeoutMs = 240_000;

/**
 * The production topology: PostgreSQL, the Temporal server built from its Go module with compose's
 * schema job, dynamic config and namespace job, and two workers run with the image's command and
 * environment on the PostgreSQL content store. Sessions go on through a killed worker, a restarted
 * server and a restarted PostgreSQL, and nothing is lost.
 */
describe('the production stack', () => {
  let stack: ProductionStack;
  const workers: StackWorker[] = [];
  let connection: Connection;
  let contentStore: ContentStore;
  let client: Client;
  let toolrail: ToolrailClient;
  const sessionIds: string[] = [];
  /** The worker the worker-kill test killed. */
  let killed: StackWorker | undefined;

  beforeAll(async () => {
    stack = await startProductionStack({ onProgress: (line) => process.stderr.write(`[stack] ${line}\n`) });
    writeWorkerModule(stack.imageDirectory);
    workers.push(
      ...(await Promise.all([
        stack.startWorker('worker-1', workerModule),
        stack.startWorker('worker-2', workerModule),
      ])),
    );
    connection = await Connection.connect({ address: stack.temporalAddress });
    contentStore = openContentStore(stack.contentStoreUrl);
    client = new Client({
      connection,
      namespace: stack.namespace,
      dataConverter: { externalStorage: createExternalStorage(contentStore) },
    });
    toolrail = new ToolrailClient({ client, taskQueue: stack.taskQueue, contentStore });
  });

  afterAll(async () => {
    await connection?.close();
    await contentStore?.close();
    for (const worker of workers) await worker.stop();
    await stack?.stop();
  });

  /** The execution logs of every worker started so far, killed ones included. */
  const executions = (): ExecutionLogEntry[] =>
    readExecutionLogs(workers.map((worker) => path.join(worker.appDirectory, moduleDirectory, 'executions.log')));

  async function startSessions(phase: string): Promise<SessionHandle[]> {
    const rules = compileRules(parse(orderDeskRulesYaml) as unknown);
    return Promise.all(
      Array.from({ length: sessionsPerPhase }, async (_, index) => {
        const sessionId = `${phase}-${index + 1}-${Date.now().toString(36)}`;
        sessionIds.push(sessionId);
        return toolrail.startSession({
          sessionId,
          rules,
          model: { provider: 'scripted', model: 'order-desk' },
          firstMessage: 'Refund orders A and B.',
          interactive: false,
          limits: { closeWhenIdle: true },
        });
      }),
    );
  }

  /** Resolves once one session's three slow reads have all started and none has returned. */
  async function untilABatchIsRunning(sessions: readonly SessionHandle[]): Promise<ExecutionLogEntry[]> {
    const runningBatch = (): ExecutionLogEntry[] => {
      for (const { sessionId } of sessions) {
        const reads = slowReads(executions(), sessionId);
        if (
          reads.filter(({ event }) => event === 'start').length === 3 &&
          !reads.some(({ event }) => event === 'end')
        ) {
          return reads;
        }
      }
      return [];
    };
    return pollUntil(
      () => Promise.resolve(runningBatch()),
      (reads) => reads.length > 0,
      { timeoutMs: sessionTimeoutMs, intervalMs: 25 },
    );
  }

  /** Every session completed with its answer and the rule state of a run without faults; each refund ran once. */
  async function expectCompletedLosingNothing(sessions: readonly SessionHandle[]): Promise<void> {
    const statuses: SessionStatusView[] = await Promise.all(sessions.map((session) => session.result()));
    for (const [index, session] of sessions.entries()) {
      expect(statuses[index]).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
      const ruleState = await session.ruleState();
      expect(ruleState.rules.counts).toEqual([expect.objectContaining({ tool: 'refund_order', count: 2, limit: 2 })]);
      const transcript = await session.transcript();
      expect(transcript.filter((entry) => entry.kind === 'model').at(-1)).toMatchObject({
        text: 'Refunded orders A and B.',
      });
      const refunds = executions().filter(
        (entry) => entry.tool === 'refund_order' && entry.event === 'start' && ownedBy(entry, session.sessionId),
      );
      // Each refund ran at most once. One whose worker was killed before it could run is reported to
      // the model as having maybe taken effect (a timeout, not retried), never run a second time.
      const ran = refunds.map(({ args }) => (args as { order_id: string }).order_id);
      expect(new Set(ran).size).toBe(ran.length);
      const expected = [
        { order_id: 'A', amount: 10 },
        { order_id: 'B', amount: 20 },
      ];
      const reportedMaybe = transcript.filter(
        (entry) => entry.kind === 'tool' && entry.tool === 'refund_order' && entry.code === 'TIMEOUT',
      );
      for (const entry of reportedMaybe) expect(entry.kind === 'tool' ? entry.content : '').toContain('may or may not');
      expect(refunds.map(({ args }) => args)).toEqual(
        expect.arrayContaining(expected.filter(({ order_id }) => ran.includes(order_id))),
      );
      expect(ran.length + reportedMaybe.length).toBeGreaterThanOrEqual(expected.length);
      // Every read returned in the end.
      const ended = new Set(
        executions()
          .filter((entry) => entry.tool === 'read_order' && entry.event === 'end' && ownedBy(entry, session.sessionId))
          .map(({ args }) => (args as { order_id: string }).order_id),
      );
      expect([...ended].sort()).toEqual(['A', 'B', 'C', 'D']);
    }
  }

  it('runs the sessions started right after the stack comes up to their end', async () => {
    const sessions = await startSessions('first');
    await expectCompletedLosingNothing(sessions);
  });

  it('has built every file the Dockerfile and the compose file run, and runs the compose jobs again safely', async () => {
    const { image, services } = stack.definition;
    for (const copied of image.copied) expect(existsSync(path.join(stack.imageDirectory, copied)), copied).toBe(true);
    const entrypointFile = image.entrypoint[1] ?? '';
    expect(existsSync(path.join(stack.imageDirectory, entrypointFile)), entrypointFile).toBe(true);
    for (const word of [...(services.worker?.command ?? []), ...(services.worker?.healthcheck?.test ?? [])]) {
      if (/^(dist|bin)\//.test(word)) expect(existsSync(path.join(stack.imageDirectory, word)), word).toBe(true);
    }
    expect(existsSync(path.join(stack.imageDirectory, 'src')), 'the image has no sources').toBe(false);
    // Production dependencies only, as `npm prune --omit=dev` leaves them: the peers, no dev tools.
    const installed = (name: string): boolean => existsSync(path.join(stack.imageDirectory, 'node_modules', name));
    expect(['@temporalio/worker', '@temporalio/client', 'zod', 'pg'].filter((name) => !installed(name))).toEqual([]);
    expect(['typescript', 'vitest', 'tsx', '@temporalio/testing'].filter(installed)).toEqual([]);
    // The PostgreSQL here is the major version compose runs.
    expect(stack.postgresVersion.split('.')[0]).toBe(stack.definition.env.POSTGRESQL_VERSION);
    // Run again, the jobs find their databases, schema and namespace, and succeed.
    await expect(stack.runJob('temporal-admin-tools')).resolves.toMatch(
      /found zero updates[^]*Temporal schema is set up/,
    );
    await expect(stack.runJob('content-store-setup')).resolves.toContain('is ready');
    await expect(stack.runJob('temporal-create-namespace')).resolves.toMatch(/namespace \S+ exists[^]*is ready/);
    // A job that fails says so: nothing hides its errors.
    await expect(stack.runJob('temporal-admin-tools', { SQL_PASSWORD: 'wrong' })).rejects.toThrow(
      /password authentication failed/,
    );
    await expect(stack.runJob('content-store-setup', { PGPASSWORD: 'wrong' })).rejects.toThrow(
      /password authentication failed/,
    );
  });

  it('registers every search attribute toolrail sets, with its type, through the namespace job', async () => {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: stack.namespace });
    const registered = Object.fromEntries(
      Object.entries(customAttributes ?? {}).map(([name, type]) => [name, String(type)]),
    );
    const typeNumbers: Record<string, string> = { KEYWORD: '2', INT: '3' };
    for (const key of toolrailSearchAttributes) expect(registered[key.name], key.name).toBe(typeNumbers[key.type]);
  });

  it('loses nothing when a worker is SIGKILLed in the middle of a batch', async () => {
    const sessions = await startSessions('worker-killed');
    const batch = await untilABatchIsRunning(sessions);
    const victim = workers.find((worker) => batch.some(({ pid }) => pid === worker.pid));
    if (!victim) throw new Error('no worker of this stack ran the batch');
    await victim.kill();
    killed = victim;
    // As compose's restart policy would: a new worker takes its place.
    workers.push(await stack.startWorker(`${victim.name}-restarted`, workerModule));
    await expectCompletedLosingNothing(sessions);
    // The killed worker's reads ran again elsewhere and returned there.
    const killedReads = batch.filter(({ pid }) => pid === victim.pid);
    for (const read of killedReads) {
      const again = executions().filter(
        ({ tool, idempotencyKey, event }) =>
          tool === 'read_order' && idempotencyKey === read.idempotencyKey && event === 'end',
      );
      expect(again.map(({ pid }) => pid)).not.toContain(victim.pid);
      expect(again.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('loses nothing when the Temporal server restarts in the middle of a batch', async () => {
    const sessions = await startSessions('server-restarted');
    await untilABatchIsRunning(sessions);
    await stack.restartTemporal();
    await expectCompletedLosingNothing(sessions);
  });

  it('loses nothing when PostgreSQL restarts in the middle of a batch', async () => {
    const sessions = await startSessions('postgres-restarted');
    await untilABatchIsRunning(sessions);
    await stack.restartPostgres();
    await expectCompletedLosingNothing(sessions);
  });

  it('tells the same through `toolrail sessions` and the search attributes', async () => {
    const worker = workers.find((candidate) => existsSync(path.join(candidate.appDirectory, 'bin')));
    if (!worker) throw new Error('no worker directory');
    // As `docker compose exec worker node bin/toolrail.cjs sessions --json` would run it.
    const { stdout } = await run(process.execPath, ['bin/toolrail.cjs', 'sessions', '--json', '--limit', '100'], {
      cwd: worker.appDirectory,
      env: { ...stack.definition.image.env, ...stack.environmentOf('worker'), PATH: process.env.PATH ?? '' },
    });
    const listed = JSON.parse(stdout) as { sessionId: string; status?: string; workflowStatus: string }[];
    expect(listed.map(({ sessionId }) => sessionId).sort()).toEqual([...sessionIds].sort());
    for (const session of listed)
      expect(session).toMatchObject({ status: SessionStatus.completed, workflowStatus: 'COMPLETED' });

    const completed = await pollUntil(
      async () => (await client.workflow.count(`ToolrailStatus = "${SessionStatus.completed}"`)).count,
      (count) => count === sessionIds.length,
    );
    expect(completed).toBe(sessionIds.length);
    for (const sessionId of sessionIds) {
      const { typedSearchAttributes } = await client.workflow.getHandle(sessionId).describe();
      const values = Object.fromEntries(
        toolrailSearchAttributes.map((key) => [key.name, typedSearchAttributes.get(key)]),
      );
      expect(values, sessionId).toEqual({
        ToolrailStatus: SessionStatus.completed,
        ToolrailLastTool: 'refund_order',
        ToolrailBlockedCalls: 0,
        ToolrailPendingApprovals: 0,
        ToolrailTotalTokens: expect.any(Number) as number,
      });
    }
  });

  it('reports a serving worker healthy and a killed one unhealthy through `toolrail worker --health`', async () => {
    const env = { ...stack.definition.image.env, ...stack.environmentOf('worker'), PATH: process.env.PATH ?? '' };
    const health = async (worker: StackWorker): Promise<{ code: number; output: string }> =>
      run(process.execPath, ['bin/toolrail.cjs', 'worker', '--health'], { cwd: worker.appDirectory, env }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
      );
    const serving = workers.at(-1);
    if (!serving || !killed) throw new Error('the worker-kill test did not run first');
    const healthy = await health(serving);
    expect(healthy.code).toBe(0);
    expect(healthy.output).toMatch(
      /^healthy: worker \d+@\S+ polls task queue \S+ \(namespace \S+\) for workflow and activity tasks/,
    );
    const unhealthy = await health(killed);
    expect(unhealthy.code).toBe(1);
    expect(unhealthy.output).toMatch(new RegExp(`^unhealthy: the worker process ${killed.pid} is gone`));
  });
});

/** The batch's slow reads of one session. */
function slowReads(log: readonly ExecutionLogEntry[], sessionId: string): ExecutionLogEntry[] {
  return log.filter(
    (entry) =>
      entry.tool === 'read_order' && (entry.args as { slow?: boolean }).slow === true && ownedBy(entry, sessionId),
  );
}

/** Whether a logged execution belongs to the session (idempotency keys start with the session id). */
function ownedBy(entry: ExecutionLogEntry, sessionId: string): boolean {
  return entry.idempotencyKey.startsWith(`${sessionId}/`);
}

/** Transpiles the tier's worker module and its scenario into the image directory, as CommonJS for plain node. */
function writeWorkerModule(imageDirectory: string): void {
  const target = path.join(imageDirectory, moduleDirectory);
  mkdirSync(target, { recursive: true });
  for (const name of ['stack-worker-module', 'order-desk']) {
    const source = readFileSync(path.join(__dirname, 'fixtures', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: `${name}.ts`,
    });
    writeFileSync(path.join(target, `${name}.js`), outputText);
  }
}
