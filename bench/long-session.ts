import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { z } from 'zod';
import { temporal } from '@temporalio/proto';
import { ToolrailClient } from '../src/client/toolrail-client';
import { startDevServer } from '../src/devserver/start-dev-server';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../src/models';
import type { ContentStore } from '../src/store/content-store';
import { openContentStore } from '../src/store/open-content-store';
import { defineTool } from '../src/tools';
import { createWorker } from '../src/worker/create-worker';
import { emptyRules } from './dispatch/measure-on-server';
import { followWholeFeed } from './long-session/follow-feed';
import type { FollowedFeed } from './long-session/follow-feed';
import { measureTextDeltaCost } from './long-session/text-delta-cost';
import { recordFigures } from './bench-figures';

/** One long-session workload: a first message, then `calls` model turns of one read-only call each. */
interface Workload {
  label: string;
  firstMessageBytes: number;
  calls: number;
  resultBytes: number;
  /** All calls in one model response (run in batches of 10) instead of one call per turn. */
  oneResponse?: boolean;
  /** What the issue measured on main before the conversation moved to the content store. */
  before: string;
  /** History per call on main before the live feed (same figures as below: run of call 10 → last full run). */
  beforeFeed: string;
}

const workloads: Workload[] = [
  {
    label: '100 KB + 100 × 5 KB',
    firstMessageBytes: 100_000,
    calls: 100,
    resultBytes: 5_000,
    before: 'completed; 55.5 MB history',
    beforeFeed: '18.6 KB → 18.5 KB',
  },
  {
    label: '800 KB + 100 × 5 KB (#1890)',
    firstMessageBytes: 800_000,
    calls: 100,
    resultBytes: 5_000,
    before: 'terminated at call 48 (2.07 MB continue-as-new input)',
    beforeFeed: '17.2 KB → 18.6 KB',
  },
  {
    label: '20 KB + 400 × 10 KB (4 MB)',
    firstMessageBytes: 20_000,
    calls: 400,
    resultBytes: 10_000,
    before: '–',
    beforeFeed: '14.6 KB → 14.7 KB',
  },
  {
    label: '20 KB + 1,000 × 1 KB',
    firstMessageBytes: 20_000,
    calls: 1_000,
    resultBytes: 1_000,
    before: 'completed in 277 s; 183 runs, 1.07 GB history',
    beforeFeed: '12.8 KB → 13.5 KB',
  },
  {
    label: '20 KB + one response of 1,000 × 1 KB',
    firstMessageBytes: 20_000,
    calls: 1_000,
    resultBytes: 1_000,
    oneResponse: true,
    before: '–',
    beforeFeed: '3.2 KB → 4.9 KB',
  },
];

/** Per-call figures at the start are taken from this call on (the first calls warm the JIT up). */
const warmUpCalls = 10;

/** What one workload measured. */
interface Measured {
  outcome: string;
  runs: number;
  largestRunBytes: number;
  totalHistoryBytes: number;
  largestCarriedBytes: number;
  storeBytes: number;
  wallMs: number;
  /**
   * Per call, averaged over whole workflow runs so each side carries one continue-as-new: the run
   * with call 10 (from call 10 on) and the last run that continued as new. History bytes, store
   * bytes, worker CPU (µs).
   */
  early: { history: number; store: number; cpuMicros: number };
  late: { history: number; store: number; cpuMicros: number };
  /** What the subscriber saw, when one followed the session. */
  feed?: FollowedFeed;
}

/**
 * `npm run bench -- long-session`: sessions whose conversation grows to megabytes, on a dev server of
 * their own, with the embedded content store. Prints, per workload: outcome, runs, the largest run's
 * history, total history, the largest continue-as-new input, bytes written to the store, wall time,
 * and per call in the run with call 10 vs the last run that continued as new: history bytes, store
 * bytes and worker CPU.
 */
export async function runLongSessionBench(): Promise<void> {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Another bench section installed the runtime already.
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-bench-content-'));
  const server = await startDevServer({ ui: false });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  try {
    const client = new Client({ connection, namespace: server.namespace });
    process.stdout.write('\nlong sessions: the conversation by reference (embedded content store), local dev server\n');
    const on = { client, nativeConnection, namespace: server.namespace, directory };
    // TOOLRAIL_BENCH_LONG_WORKLOADS=N runs the first N workloads only; TOOLRAIL_BENCH_FEED=off leaves
    // out the runs with a feed subscriber and the cost of streamed text.
    const count = Number(process.env['TOOLRAIL_BENCH_LONG_WORKLOADS'] ?? workloads.length);
    const withFeed = process.env['TOOLRAIL_BENCH_FEED'] !== 'off';
    const rows: [Workload, Measured, Measured | undefined][] = [];
    for (const workload of workloads.slice(0, count)) {
      // Side by side: no subscriber, then one that follows the session's live feed from start to end.
      const off = await measure(workload, on, false);
      rows.push([workload, off, withFeed ? await measure(workload, on, true) : undefined]);
      const { outcome, runs, totalHistoryBytes, wallMs, late } = off;
      recordFigures({
        section: 'long-session',
        workload: workload.label,
        outcome,
        runs,
        totalHistoryBytes,
        wallMs,
        late,
      });
    }
    printRows(rows.map(([workload, off]) => [workload, off]));
    if (withFeed) {
      printFeedRows(
        rows.flatMap(([workload, off, followed]) => (followed ? [[workload, off, followed] as const] : [])),
      );
      await measureTextDeltaCost(on);
    }
  } finally {
    await nativeConnection.close();
    await connection.close();
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function measure(
  workload: Workload,
  {
    client,
    nativeConnection,
    namespace,
    directory,
  }: { client: Client; nativeConnection: NativeConnection; namespace: string; directory: string },
  follow: boolean,
): Promise<Measured> {
  const counter = countingStore(openContentStore(directory));
  const cpuAtCall: number[] = [];
  const readPage = defineTool({
    name: 'read_page',
    description: 'Reads one page.',
    inputSchema: z.object({ page: z.number().int() }),
    concurrency: 'READ_ONLY',
    execute: ({ page }) => {
      const cpu = process.cpuUsage();
      cpuAtCall[page] = cpu.user + cpu.system;
      counter.currentCall = page;
      return Promise.resolve(textOf(`page ${page}`, workload.resultBytes));
    },
  });
  const calls = Array.from({ length: workload.calls }, (_, page) => ({ name: 'read_page', args: { page } }));
  const model = createScriptedModel(
    [
      ...(workload.oneResponse
        ? [parallelToolCallsResponse(calls)]
        : calls.map(({ name, args }) => toolCallResponse(name, args))),
      textResponse('Done.'),
    ],
    { recordRequests: false },
  );
  const taskQueue = `bench-long-${workload.calls}-${workload.firstMessageBytes}${workload.oneResponse ? '-one' : ''}${follow ? '-feed' : ''}`;
  const worker = await createWorker({
    connection: nativeConnection,
    namespace,
    taskQueue,
    tools: [readPage],
    scriptedModels: { long: model },
    contentStore: counter,
  });
  const toolrail = new ToolrailClient({ client, taskQueue, contentStore: counter });
  const started = performance.now();
  let feed: FollowedFeed | undefined;
  const outcome = await worker.runUntil(async () => {
    const session = await toolrail.startSession({
      sessionId: taskQueue,
      rules: emptyRules(),
      model: { provider: 'scripted', model: 'long' },
      firstMessage: textOf('brief', workload.firstMessageBytes),
      interactive: false,
      limits: { maxTurnsPerRun: workload.calls + 5 },
    });
    const following = follow ? followWholeFeed(session) : undefined;
    const result = session.result().then(
      (status) => `${status.status} (${status.counters.toolCalls} calls)`,
      (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 80),
    );
    feed = await following;
    return result;
  });
  const wallMs = performance.now() - started;
  const history = await historyByCall(client, taskQueue);
  // Each call is charged with what happened after it started until the next call started, the
  // continue-as-new that may come in between included: history, store writes and CPU alike.
  const cpuAfterCall = cpuAtCall.map((cpu, call) => (cpuAtCall[call + 1] ?? Number.NaN) - cpu);
  const lastRun = history.runOfCall.at(-1) ?? 0;
  const earlyRun = history.runOfCall[warmUpCalls] ?? 0;
  const lateRun = lastRun - 1 > earlyRun ? lastRun - 1 : lastRun;
  const perCall = (run: number, from: number): Measured['early'] => {
    const calls = history.runOfCall.flatMap((callRun, call) => (callRun === run && call >= from ? [call] : []));
    return {
      history: average(calls.map((call) => history.perCall[call] ?? Number.NaN)),
      store: average(calls.map((call) => counter.bytesPerCall[call] ?? 0)),
      cpuMicros: average(calls.map((call) => cpuAfterCall[call] ?? Number.NaN)),
    };
  };
  return {
    outcome,
    runs: history.runs,
    largestRunBytes: history.largestRun,
    totalHistoryBytes: history.total,
    largestCarriedBytes: history.largestCarried,
    storeBytes: counter.total,
    wallMs,
    early: perCall(earlyRun, warmUpCalls),
    late: perCall(lateRun, 0),
    ...(feed ? { feed } : {}),
  };
}

/** History bytes of every run, and per tool call (the events from one call's scheduling to the next's). */
async function historyByCall(
  client: Client,
  workflowId: string,
): Promise<{
  runs: number;
  largestRun: number;
  total: number;
  largestCarried: number;
  perCall: number[];
  runOfCall: number[];
}> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  let runId = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId ?? undefined;
  const perCall: number[] = [];
  const runOfCall: number[] = [];
  let call = -1;
  let runs = 0;
  let largestRun = 0;
  let total = 0;
  let largestCarried = 0;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs += 1;
    const events = history.events ?? [];
    let runBytes = 0;
    for (const event of events) {
      const bytes = temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      runBytes += bytes;
      if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'executeTool') {
        call += 1;
        runOfCall[call] = runs - 1;
      }
      if (call >= 0) perCall[call] = (perCall[call] ?? 0) + bytes;
    }
    const input = events[0]?.workflowExecutionStartedEventAttributes?.input;
    if (runs > 1 && input)
      largestCarried = Math.max(largestCarried, temporal.api.common.v1.Payloads.encode(input).finish().length);
    largestRun = Math.max(largestRun, runBytes);
    total += runBytes;
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return { runs, largestRun, total, largestCarried, perCall, runOfCall };
}

/** A store that counts the bytes written through it, in total and per tool call. */
function countingStore(
  store: ContentStore,
): ContentStore & { total: number; bytesPerCall: number[]; currentCall: number } {
  const counted = {
    description: store.description,
    total: 0,
    bytesPerCall: [] as number[],
    currentCall: -1,
    async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
      counted.total += bytes.length;
      if (counted.currentCall >= 0)
        counted.bytesPerCall[counted.currentCall] = (counted.bytesPerCall[counted.currentCall] ?? 0) + bytes.length;
      await store.put(sessionId, key, bytes);
    },
    get: (sessionId: string, key: string) => store.get(sessionId, key),
    putRecord: (sessionId: string, name: string, bytes: Uint8Array) => store.putRecord(sessionId, name, bytes),
    getRecord: (sessionId: string, name: string) => store.getRecord(sessionId, name),
    deleteSession: (sessionId: string) => store.deleteSession(sessionId),
    listSessions: () => store.listSessions(),
    close: () => store.close(),
  };
  return counted;
}

function printRows(rows: readonly [Workload, Measured][]): void {
  const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(2)} MB`;
  const kb = (bytes: number): string => `${(bytes / 1_000).toFixed(1)} KB`;
  const ratio = (late: number, early: number): string => (early > 0 ? `${(late / early).toFixed(2)}×` : '–');
  const lines = [
    '| workload | before (main, from the issue) | outcome | runs | largest run | total history | largest continue-as-new input | store written | wall | history/call (run of call 10 → last full run) | store/call (same runs) | worker CPU/call (same runs) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ([workload, measured]) =>
        `| ${workload.label} | ${workload.before} | ${measured.outcome} | ${measured.runs} | ${mb(measured.largestRunBytes)} | ${mb(measured.totalHistoryBytes)} | ${kb(measured.largestCarriedBytes)} | ${mb(measured.storeBytes)} | ${(measured.wallMs / 1000).toFixed(1)} s | ${kb(measured.early.history)} → ${kb(measured.late.history)} (${ratio(measured.late.history, measured.early.history)}) | ${kb(measured.early.store)} → ${kb(measured.late.store)} (${ratio(measured.late.store, measured.early.store)}) | ${(measured.early.cpuMicros / 1000).toFixed(1)} → ${(measured.late.cpuMicros / 1000).toFixed(1)} ms (${ratio(measured.late.cpuMicros, measured.early.cpuMicros)}) |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printFeedRows(rows: readonly [Workload, Measured, Measured][]): void {
  const kb = (bytes: number): string => `${(bytes / 1_000).toFixed(1)} KB`;
  const perCall = ({ early, late }: Measured): string => `${kb(early.history)} → ${kb(late.history)}`;
  const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  const lines = [
    '',
    'live feed: one subscriber following the whole session (queries while it long-polls the history) vs none, side by side',
    '| workload | history/call before the feed (main) | no subscriber | one subscriber | subscriber / none (run of call 10, last full run) | largest continue-as-new input (none → one) | what the subscriber saw |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(([workload, off, on]) => {
      const seen = on.feed
        ? `${on.feed.events} events across ${on.feed.continuedAsNew + 1} runs, ${on.feed.inOrderOnce ? 'each once, in order' : 'MISSED OR DOUBLED'}`
        : '–';
      return `| ${workload.label} | ${workload.beforeFeed} | ${perCall(off)} | ${perCall(on)} | ${ratio(on.early.history, off.early.history)}, ${ratio(on.late.history, off.late.history)} | ${kb(off.largestCarriedBytes)} → ${kb(on.largestCarriedBytes)} | ${seen} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function textOf(seed: string, bytes: number): string {
  const unit = `${seed} lorem ipsum dolor sit amet; `;
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** The mean of the finite values (0 when there are none). */
function average(values: readonly number[]): number {
  const finite = values.filter((value) => Number.isFinite(value));
  return finite.length === 0 ? 0 : finite.reduce((sum, value) => sum + value, 0) / finite.length;
}
