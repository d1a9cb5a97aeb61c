import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import type { SessionHandle } from '../../../src/client/session-handle';
import type { TranscriptEntry } from '../../../src/session/session-views';
import { startDevServer } from '../../../src/devserver/start-dev-server';
import type { DevServer } from '../../../src/devserver/start-dev-server';
import { freePort } from '../../../src/devserver/free-port';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import type { RestartWorkerCommand, RestartWorkerEvent } from '../../fixtures/restart-worker';
import { uniqueName } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';

const repoRoot = path.resolve(__dirname, '../../..');
const restartWorkerScript = path.join(repoRoot, 'test/fixtures/restart-worker.ts');
/** The core's warning when it gave up delivering an activity's completion to the server. */
const completionLost = 'Network error while completing activity';

/** A worker process and what it told the test so far. */
interface WorkerProcess {
  /** Resolves with the first event (already told or still to come) that `matches`; rejects if the process exits first. */
  next(matches: (event: RestartWorkerEvent) => boolean): Promise<RestartWorkerEvent>;
  send(command: RestartWorkerCommand): void;
  /** Sends SIGKILL and waits for the process to be gone. */
  kill(): Promise<void>;
  /** Every event so far. */
  readonly events: RestartWorkerEvent[];
}

/** One waiter of {@link WorkerProcess.next}. */
interface EventWaiter {
  matches: (event: RestartWorkerEvent) => boolean;
  resolve: (event: RestartWorkerEvent) => void;
  reject: (error: Error) => void;
}

describe('a destructive call whose completion the Temporal server never got', () => {
  const children = new Set<ChildProcess>();
  const servers: DevServer[] = [];
  let workDirectory: string;
  let bundlePath: string;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-restart-'));
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const server of servers) await server.stop();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  /** Starts `restart-worker.ts` in a child process and waits until it polls. */
  async function startWorkerProcess(address: string, taskQueue: string): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', restartWorkerScript], {
      cwd: repoRoot,
      env: {
        ...process.env,
        TOOLRAIL_TEST_ADDRESS: address,
        TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
        TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
        TOOLRAIL_CONTENT_STORE: path.join(workDirectory, 'content'),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.add(child);
    const events: RestartWorkerEvent[] = [];
    const waiters = new Set<EventWaiter>();
    let exit: Error | undefined;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        exit = new Error(`the worker process exited (${code ?? signal})`);
        for (const waiter of waiters) waiter.reject(exit);
        waiters.clear();
        resolve();
      }),
    );
    child.on('message', (event: RestartWorkerEvent) => {
      events.push(event);
      for (const waiter of [...waiters].filter(({ matches }) => matches(event))) {
        waiters.delete(waiter);
        waiter.resolve(event);
      }
    });
    const next = (matches: (event: RestartWorkerEvent) => boolean): Promise<RestartWorkerEvent> => {
      const seen = events.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      if (exit !== undefined) return Promise.reject(exit);
      return new Promise((resolve, reject) => waiters.add({ matches, resolve, reject }));
    };
    await next((event) => event.event === 'ready');
    const kill = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    };
    return { next, send: (command) => child.send(command), kill, events };
  }

  /** Starts the session (its model calls `apply_change` once, then answers) and waits until the tool runs. */
  async function startSession(
    client: ToolrailClient,
    sessionId: string,
    worker: WorkerProcess,
  ): Promise<{ session: SessionHandle; callId: string }> {
    const session = await client.startSession({
      sessionId,
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { provider: 'scripted', model: 'restart' },
      firstMessage: 'Raise the limit.',
      interactive: false,
      limits: { closeWhenIdle: true },
    });
    const started = await worker.next((event) => event.event === 'tool-started');
    if (started.event !== 'tool-started') throw new Error(`unexpected event ${started.event}`);
    return { session, callId: started.callId };
  }

  /** The transcript's result of `callId` and its notices about it. */
  async function reported(
    session: SessionHandle,
    callId: string,
  ): Promise<{ result: TranscriptEntry | undefined; notices: string[] }> {
    const transcript = await session.transcript();
    return {
      result: transcript.find((entry) => entry.kind === 'tool' && entry.callId === callId),
      notices: transcript.flatMap((entry) =>
        entry.kind === 'notice' && entry.text.includes(callId) ? [entry.text] : [],
      ),
    };
  }

  it('finished while the server was down: it is reported with its result once the server is back', async () => {
    const dbFilename = path.join(workDirectory, 'temporal.db');
    const port = await freePort();
    const first = await startDevServer({ port, dbFilename, ui: false });
    servers.push(first);
    const taskQueue = uniqueName('restart');
    const worker = await startWorkerProcess(first.address, taskQueue);

    const connection = await Connection.connect({ address: first.address });
    try {
      const client = new ToolrailClient({ client: new Client({ connection }), taskQueue });
      const { session, callId } = await startSession(client, taskQueue, worker);

      // The server stops gracefully while the destructive call runs; the call then finishes, and the
      // worker gives up delivering its completion.
      await first.stop();
      worker.send({ release: callId });
      await worker.next((event) => event.event === 'tool-returned');
      await worker.next((event) => event.event === 'log' && event.message.includes(completionLost));

      const second = await startDevServer({ port, dbFilename, ui: false });
      servers.push(second);
      expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });

      const { result, notices } = await reported(session, callId);
      expect(result).toMatchObject({ kind: 'tool', tool: 'apply_change', isError: false });
      expect(result).not.toHaveProperty('code');
      expect(result?.kind === 'tool' ? result.content : '').toContain('change applied');
      expect(notices).toEqual([expect.stringMatching(/never got its completion.*recovered/)]);
      // It ran exactly once.
      expect(worker.events.filter((event) => event.event === 'tool-started')).toHaveLength(1);

      // The history this path wrote replays on the same workflow code.
      const history = await client.temporal.workflow.getHandle(taskQueue).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: { code: readFileSync(bundlePath, 'utf8') } }, history);
    } finally {
      await connection.close();
    }
  });

  it('never finished (its worker died): it is reported as a timeout that may or may not have taken effect', async () => {
    const taskQueue = uniqueName('worker-died');
    const address = inject('temporalAddress');
    const dying = await startWorkerProcess(address, taskQueue);
    const connection = await Connection.connect({ address });
    try {
      const client = new ToolrailClient({ client: new Client({ connection }), taskQueue });
      const { session, callId } = await startSession(client, taskQueue, dying);
      await dying.kill();
      const survivor = await startWorkerProcess(address, taskQueue);
      expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });

      const { result, notices } = await reported(session, callId);
      expect(result).toMatchObject({ kind: 'tool', tool: 'apply_change', isError: true, code: 'TIMEOUT' });
      const content = result?.kind === 'tool' ? result.content : '';
      expect(content).toContain('It may or may not have taken effect');
      expect(content).toContain('no record of its completion was found');
      expect(notices).toEqual([]);
      // Not run again.
      expect(survivor.events.filter((event) => event.event === 'tool-started')).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
