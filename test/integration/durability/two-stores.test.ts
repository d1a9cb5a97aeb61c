import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import type { SessionHandle } from '../../../src/client/session-handle';
import type { SessionStatusView } from '../../../src/session/session-views';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { readStoreWorkerLog } from '../../fixtures/store-worker-log';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { untilRunsEnded } from '../../helpers/until-runs-ended';

const repoRoot = path.resolve(__dirname, '../../..');
const storeWorkerScript = path.join(repoRoot, 'test/fixtures/store-worker.ts');
const noRules = compileRules({ toolrail: 1, rules: [] });

describe('two workers on one task queue with different directory stores (two machines)', () => {
  let connections: HarnessConnections;
  let workDirectory: string;
  let bundlePath: string;
  const children = new Set<ChildProcess>();
  beforeAll(async () => {
    connections = await connectToHarness();
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-two-stores-'));
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
  });
  afterAll(async () => {
    // Whatever happened, no worker process outlives the test.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await connections?.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  /** Starts a worker process of `machine` (its store: `<work>/<machine>`) and waits until it polls; resolves to its stop. */
  async function startMachine(machine: string, taskQueue: string, logFile: string): Promise<() => Promise<void>> {
    const child = spawn(process.execPath, ['--import', 'tsx', storeWorkerScript], {
      cwd: repoRoot,
      env: {
        ...process.env,
        TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'),
        TOOLRAIL_TEST_NAMESPACE: connections.namespace,
        TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
        TOOLRAIL_TEST_EXECUTION_LOG: logFile,
        TOOLRAIL_TEST_MACHINE: machine,
        TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
        TOOLRAIL_CONTENT_STORE: path.join(workDirectory, machine),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('ready\n')) resolve();
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`worker ${machine} exited (${code ?? signal}):\n${stderr}`)),
      );
    });
    return async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
  }

  it('serves every session only from its own store: all complete, each call runs once, and a session waiting for its store says why', async () => {
    const taskQueue = uniqueName('two-stores');
    const logFile = path.join(workDirectory, `${taskQueue}.log`);
    const storeA = new DirectoryContentStore(path.join(workDirectory, 'a'));
    const storeB = new DirectoryContentStore(path.join(workDirectory, 'b'));
    const client = new ToolrailClient({ client: connections.client, taskQueue });
    const runs = async (session: SessionHandle, count: number): Promise<SessionStatusView> => {
      await untilRunsEnded(session, count, { timeoutMs: 90_000 });
      return session.status();
    };

    // Machine A alone: the sessions start there and keep their content in A's store.
    const stopA = await startMachine('a', taskQueue, logFile);
    const sessions = await Promise.all(
      [1, 2, 3, 4].map((index) =>
        client.startSession({
          sessionId: uniqueName(`two-stores-${index}`),
          rules: noRules,
          model: { provider: 'scripted', model: 'changes' },
          firstMessage: 'Apply change 0',
          limits: { storeRetryIntervalMs: 500 },
        }),
      ),
    );
    for (const session of sessions) expect((await runs(session, 1)).store?.description).toBe(storeA.description);

    // Machine B joins with another store: it refuses the sessions' activities, A serves them.
    const stopB = await startMachine('b', taskQueue, logFile);
    for (const session of sessions) await session.send('Apply change 1');
    for (const session of sessions) await runs(session, 2);

    // Only B is left: the session waits and says why, naming both stores.
    await stopA();
    const [first] = sessions as [SessionHandle];
    await first.send('Apply change 2');
    const waiting = await pollUntil(
      () => first.status(),
      (status) => status.status === 'waiting_for_store',
      { timeoutMs: 60_000 },
    );
    expect(waiting.storeProblem?.code).toBe('STORE_MISMATCH');
    expect(waiting.storeProblem?.message).toContain(storeA.description);
    expect(waiting.storeProblem?.message).toContain(storeB.description);

    // A is back: the session goes on where it was; then every session ends.
    const stopA2 = await startMachine('a', taskQueue, logFile);
    await runs(first, 3);
    for (const session of sessions) await session.end();
    for (const session of sessions) expect(await session.result()).toMatchObject({ status: 'completed' });
    await stopA2();
    await stopB();

    const executions = readStoreWorkerLog(logFile);

    for (const session of sessions) {
      const calls = executions.filter((execution) => execution.sessionId === session.sessionId);
      // Exactly once each, and always on the machine whose store holds the session.
      expect(calls.map(({ callId }) => callId)).toEqual(
        session === first ? ['change-0', 'change-1', 'change-2'] : ['change-0', 'change-1'],
      );
      expect(new Set(calls.map(({ machine }) => machine))).toEqual(new Set(['a']));
    }
  }, 300_000);
});
