import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import type { SessionHandle } from '../../../src/client/session-handle';
import type { SessionRuleStateView, SessionStatusView, TranscriptEntry } from '../../../src/session/session-views';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { crashScenarioMessage, crashScenarioRulesYaml, readExecutionLog } from '../../fixtures/crash-scenario';
import type { ExecutionLogEntry } from '../../fixtures/crash-scenario';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { fetchJsonHistory } from '../../helpers/run-chain';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';
import type { WorkerChild } from '../../helpers/worker-child';
import type { JsonHistoryEvent } from '../../helpers/run-chain';

/** What one session run left: its id, final status, rule state, transcript, history and the tool log. */
interface SessionRecord {
  sessionId: string;
  status: SessionStatusView;
  ruleState: SessionRuleStateView;
  transcript: TranscriptEntry[];
  log: ExecutionLogEntry[];
  events: JsonHistoryEvent[];
}

describe('a worker killed in the middle of a batch', () => {
  const children = new Set<ChildProcess>();
  let connections: HarnessConnections;
  let workDirectory: string;
  let bundlePath: string;

  beforeAll(async () => {
    connections = await connectToHarness();
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-crash-'));
    // Bundle once here rather than in every worker process.
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
  });
  afterAll(async () => {
    // Whatever happened, no worker process outlives the test.
    killWorkerChildren(children);
    await connections?.close();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  /** Starts `crash-worker.ts` in a child process on `taskQueue` and waits until it polls. */
  function startWorkerProcess(taskQueue: string, logFile: string, contentStore: string): Promise<WorkerChild> {
    return startWorkerChild(
      'test/fixtures/crash-worker.ts',
      {
        TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'),
        TOOLRAIL_TEST_NAMESPACE: connections.namespace,
        TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
        TOOLRAIL_TEST_EXECUTION_LOG: logFile,
        TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
        TOOLRAIL_CONTENT_STORE: contentStore,
      },
      children,
    );
  }

  /**
   * Runs the crash scenario on a fresh task queue. With `crash`, the first worker is killed once the
   * execution log shows every slow read of the batch started and none returned, and a second worker
   * process takes over.
   */
  async function runScenario({
    crash,
    contentStore,
  }: {
    crash: boolean;
    contentStore: string;
  }): Promise<SessionRecord & { killedPid?: number; survivorPid: number }> {
    const taskQueue = uniqueName(crash ? 'crash' : 'no-crash');
    const logFile = path.join(workDirectory, `${taskQueue}.log`);
    const client = new ToolrailClient({ client: connections.client, taskQueue });
    const first = await startWorkerProcess(taskQueue, logFile, contentStore);
    let second: WorkerChild | undefined;
    try {
      const session = await client.startSession({
        sessionId: taskQueue,
        rules: compileRules(parse(crashScenarioRulesYaml) as unknown),
        model: { provider: 'scripted', model: 'crash' },
        firstMessage: crashScenarioMessage,
        interactive: false,
        limits: { closeWhenIdle: true },
      });
      let killedPid: number | undefined;
      if (crash) {
        await waitUntil(
          () => batchReads(readExecutionLog(logFile), first.pid).started === 3,
          'every read of the batch started',
        );
        await first.kill();
        killedPid = first.pid;
        second = await startWorkerProcess(taskQueue, logFile, contentStore);
      }
      const survivor = second ?? first;
      return {
        ...(await recordSession(session, logFile)),
        ...(killedPid === undefined ? {} : { killedPid }),
        survivorPid: survivor.pid,
      };
    } finally {
      await first.kill();
      await second?.stop();
    }
  }

  async function recordSession(session: SessionHandle, logFile: string): Promise<SessionRecord> {
    const status = await session.result();
    return {
      sessionId: session.sessionId,
      status,
      ruleState: await session.ruleState(),
      transcript: await session.transcript(),
      log: readExecutionLog(logFile),
      events: (await fetchJsonHistory(connections.client, session.sessionId)).events,
    };
  }

  /** Where the workers keep the conversation: the embedded directory store, or the production PostgreSQL store. */
  const contentStores = [
    { name: 'the embedded store', spec: (): string => path.join(workDirectory, 'content') },
    { name: 'the PostgreSQL store', spec: (): string => inject('postgresUrl') },
  ];

  it.each(contentStores)(
    'completes with the rule state of an uncrashed run, and runs each destructive call exactly once, with $name',
    async ({ spec }) => {
      const contentStore = spec();
      const uncrashed = await runScenario({ crash: false, contentStore });
      const crashed = await runScenario({ crash: true, contentStore });
      const { killedPid, survivorPid } = crashed;
      if (killedPid === undefined) throw new Error('the first worker was not killed');

      // The kill landed in the middle of the batch: its three reads had started and none had returned.
      const killedReads = batchReads(crashed.log, killedPid);
      expect(killedReads).toEqual({ started: 3, ended: 0 });

      // The session completed, took the same course, and ended with the same rule state.
      expect(crashed.status).toEqual(uncrashed.status);
      expect(crashed.status.lastRunEnd).toBe('answered');
      expect(crashed.transcript).toEqual(uncrashed.transcript);
      expect(crashed.ruleState).toEqual(uncrashed.ruleState);
      expect(crashed.ruleState.rules.forbidden.map(({ tool }) => tool)).toEqual(['refund_order']);
      expect(crashed.ruleState.rules.counts).toEqual([
        expect.objectContaining({ tool: 'refund_order', count: 2, limit: 2 }),
      ]);

      // Each refund (destructive) ran exactly once: the first before the crash, the second after it.
      const refunds = crashed.log.filter(({ tool, event }) => tool === 'refund_order' && event === 'start');
      expect(refunds.map(({ callId, pid }) => ({ callId, pid }))).toEqual([
        { callId: 'call_1_0', pid: killedPid },
        { callId: 'call_3_0', pid: survivorPid },
      ]);
      // Their idempotency keys derive from the session and the call only: the same as in the uncrashed run.
      const keysOf = ({ log, sessionId }: SessionRecord, tool: string): string[] =>
        log
          .filter((entry) => entry.tool === tool && entry.event === 'start')
          .map(({ idempotencyKey }) => idempotencyKey.replace(sessionId, '<session>'));
      expect(keysOf(crashed, 'refund_order')).toEqual(keysOf(uncrashed, 'refund_order'));
      for (const { idempotencyKey, callId } of refunds) {
        expect(idempotencyKey.startsWith(`${crashed.sessionId}/`) && idempotencyKey.endsWith(`/${callId}`)).toBe(true);
      }
      // Destructive calls are scheduled with a single attempt.
      const refundSchedules = scheduledAttributes(crashed.events).filter(({ input }) => input.includes('refund_order'));
      expect(refundSchedules.map(({ maximumAttempts }) => maximumAttempts)).toEqual([1, 1]);

      // Each interrupted read ran again on the new worker, with the same idempotency key, and finished there.
      for (const orderId of ['B', 'C', 'D']) {
        const runs = crashed.log.filter(({ tool, args }) => tool === 'read_order' && readOrderId(args) === orderId);
        expect(runs.map(({ event, pid }) => ({ event, pid }))).toEqual([
          { event: 'start', pid: killedPid },
          { event: 'start', pid: survivorPid },
          { event: 'end', pid: survivorPid },
        ]);
        expect(new Set(runs.map(({ idempotencyKey }) => idempotencyKey)).size).toBe(1);
      }
      // The server noticed the dead worker through the reads' heartbeat timeout, and retried them.
      const retriedReads = startedAttributes(crashed.events).filter(({ attempt }) => attempt > 1);
      expect(retriedReads).toHaveLength(3);
      for (const read of retriedReads) expect(read.lastFailureTimeoutType).toBe('TIMEOUT_TYPE_HEARTBEAT');
    },
  );
});

/** Starts and ends, in one worker process, of the batch's slow reads (orders B, C, D). */
function batchReads(log: readonly ExecutionLogEntry[], pid: number): { started: number; ended: number } {
  const reads = log.filter(
    (entry) => entry.pid === pid && entry.tool === 'read_order' && readOrderId(entry.args) !== 'A',
  );
  return {
    started: reads.filter(({ event }) => event === 'start').length,
    ended: reads.filter(({ event }) => event === 'end').length,
  };
}

function readOrderId(args: unknown): unknown {
  return typeof args === 'object' && args !== null && 'order_id' in args ? args.order_id : undefined;
}

/** Polls `condition` until it holds; fails after a minute (a bound for a stuck test, not a timing assertion). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`);
    await sleep(25);
  }
}

/** Per scheduled activity: its JSON-encoded input (to tell tools apart) and its retry policy's attempts. */
function scheduledAttributes(
  events: readonly JsonHistoryEvent[],
): { input: string; maximumAttempts: number | undefined }[] {
  return events.flatMap((event) => {
    const attributes = event['activityTaskScheduledEventAttributes'] as
      | {
          activityType?: { name?: string };
          input?: { payloads?: { data?: string }[] };
          retryPolicy?: { maximumAttempts?: number };
        }
      | undefined;
    if (attributes?.activityType?.name !== 'executeTool') return [];
    const input = (attributes.input?.payloads ?? [])
      .map(({ data }) => Buffer.from(data ?? '', 'base64').toString())
      .join('');
    return [{ input, maximumAttempts: attributes.retryPolicy?.maximumAttempts }];
  });
}

/** Per started activity: its attempt and, for a retry, the timeout type of the attempt before. */
function startedAttributes(
  events: readonly JsonHistoryEvent[],
): { attempt: number; lastFailureTimeoutType: string | undefined }[] {
  return events.flatMap((event) => {
    const attributes = event['activityTaskStartedEventAttributes'] as
      { attempt?: number; lastFailure?: { timeoutFailureInfo?: { timeoutType?: string } } } | undefined;
    if (attributes === undefined) return [];
    return [
      {
        attempt: attributes.attempt ?? 1,
        lastFailureTimeoutType: attributes.lastFailure?.timeoutFailureInfo?.timeoutType,
      },
    ];
  });
}
