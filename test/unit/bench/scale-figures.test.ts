import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { isMainThread } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { roundLines, threadLine, timeoutLine } from '../../../bench/scale/print-scale-results';
import { cpuRate, machineBusyMs, processTreeCpuMs, threadCpuMs, threadKind } from '../../../bench/scale/process-stats';
import { scaleServerKind } from '../../../bench/scale/scale-server';
import type { HistoryFigures } from '../../../bench/scale/scale-histories';
import type { ScaleRound, ScaleVariant } from '../../../bench/scale/scale-types';

function round(
  variant: ScaleVariant,
  wallMs: number,
  turnLatencies: number[],
  workflowTaskTimeouts: number,
): ScaleRound {
  const history: HistoryFigures = {
    bytes: 0,
    events: 0,
    runs: 1,
    workflowTaskTimeouts: Array.from({ length: workflowTaskTimeouts }, (_, index) => ({
      workflowId: `scale-${index}`,
      kind: 'start-to-close on the sticky queue',
      scheduledAt: 0,
      startedAt: 1,
      timedOutAt: 10_001,
    })),
    workflowTaskWaits: [],
    turnLatencies,
    bytesByKind: new Map(),
  };
  return {
    variant,
    turns: 100,
    wallMs,
    workerCpuMs: 1_500,
    workerThreadCpuMs: undefined,
    serverCpuMs: 3_000,
    clientCpuMs: 100,
    workerRssPeak: 0,
    workerRssAfter: 0,
    history,
  };
}

describe('the scale benchmark round by round', () => {
  it('gives each round its own line, the variants in the order they ran, with their own figures', () => {
    const latencies = Array.from({ length: 100 }, (_, index) => index + 1);
    const lines = roundLines([
      [
        round('toolrail', 2_000, latencies, 1),
        round(
          'bare',
          4_000,
          latencies.map((ms) => ms * 2),
          0,
        ),
      ],
      [round('bare', 5_000, latencies, 0), round('toolrail', 10_000, latencies, 3)],
    ]);
    expect(lines).toEqual([
      'round 1: toolrail: turns per second 50.0, turn latency p99 99.0 ms, turn latency p50 50.0 ms, workflow-task timeouts 1, worker CPU per turn 15.0 ms, server CPU per turn 30.0 ms, CPU per turn, server + worker + client 46.0 ms; ' +
        'then bare: turns per second 25.0, turn latency p99 198.0 ms, turn latency p50 100.0 ms, workflow-task timeouts 0, worker CPU per turn 15.0 ms, server CPU per turn 30.0 ms, CPU per turn, server + worker + client 46.0 ms',
      'round 2: bare: turns per second 20.0, turn latency p99 99.0 ms, turn latency p50 50.0 ms, workflow-task timeouts 0, worker CPU per turn 15.0 ms, server CPU per turn 30.0 ms, CPU per turn, server + worker + client 46.0 ms; ' +
        'then toolrail: turns per second 10.0, turn latency p99 99.0 ms, turn latency p50 50.0 ms, workflow-task timeouts 3, worker CPU per turn 15.0 ms, server CPU per turn 30.0 ms, CPU per turn, server + worker + client 46.0 ms',
    ]);
  });

  it("gives the worker's CPU per turn by what its threads do, busiest first, as medians over the rounds", () => {
    const withThreads = (threads: [string, number][]): ScaleRound => ({
      ...round('toolrail', 1_000, [], 0),
      workerThreadCpuMs: new Map(threads),
    });
    const line = threadLine('toolrail', [
      withThreads([
        ['main', 400],
        ['workflow', 300],
        ['other', 0.1],
      ]),
      withThreads([
        ['main', 200],
        ['workflow', 500],
        ['other', 0.2],
      ]),
      withThreads([
        ['main', 300],
        ['workflow', 450],
        ['other', 0.3],
      ]),
    ]);
    expect(line).toBe('worker CPU per turn by thread, toolrail: workflow 4.50 ms, main 3.00 ms');
    expect(threadLine('bare', [round('bare', 1_000, [], 0)])).toBeUndefined();
  });

  it("names a Node worker's threads by what they do", () => {
    expect(
      ['MainThread', 'WorkerThread', 'V8Worker', 'tokio-runtime-w', 'workflow-proces', 'libuv-worker'].map(threadKind),
    ).toEqual(['main', 'workflow', 'V8 helpers', 'SDK core', 'SDK core', 'other']);
  });
});

describe("a process's CPU by thread", () => {
  it('counts the CPU a thread spends under what the thread does', () => {
    // Node's worker threads are where a worker runs its workflows: the benchmark calls them `workflow`.
    const kind = isMainThread ? 'main' : 'workflow';
    const before = threadCpuMs(process.pid);
    const started = process.cpuUsage();
    let spin = 0;
    while (process.cpuUsage(started).user < 200_000) spin += Math.sqrt(spin + 1);
    const after = threadCpuMs(process.pid);
    expect(spin).toBeGreaterThan(0);
    expect((after?.get(kind) ?? 0) - (before?.get(kind) ?? 0)).toBeGreaterThanOrEqual(100);
  });
});

describe("the machine's busy time", () => {
  it('counts the CPU this process spends among the busy time of all the cores', () => {
    const before = machineBusyMs();
    const started = process.cpuUsage();
    let spin = 0;
    while (process.cpuUsage(started).user < 200_000) spin += Math.sqrt(spin + 1);
    const after = machineBusyMs();
    expect(spin).toBeGreaterThan(0);
    expect((after ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('gives the rate at which a CPU time grows, in ms per second', async () => {
    let calls = 0;
    // A CPU time that reads 0 ms, then 500 ms a second later: 500 ms per second (less if the
    // second ran long; never more, but for the clock's millisecond).
    const rate = await cpuRate(() => (calls++ === 0 ? 0 : 500), 1_000);
    expect(rate).toBeGreaterThan(100);
    expect(rate).toBeLessThanOrEqual(501);
    expect(await cpuRate(() => undefined, 1)).toBeUndefined();
  });
});

describe("a server's CPU with the processes below it", () => {
  it('counts the processes below the given one, one that ended and was waited for included', async () => {
    // A shell runs one Node process that spins 200 ms of CPU and ends, then one that spins as long
    // and stays until its input closes: the tree holds both spins, the first only in the shell's
    // children's time.
    const spin = 'const s = process.cpuUsage(); while (process.cpuUsage(s).user < 200000);';
    const script = `"$0" -e '${spin}' && "$0" -e '${spin} console.log("spun"); process.stdin.resume()'`;
    const shell = spawn('sh', ['-c', script, process.execPath], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await once(shell.stdout, 'data');
      expect(processTreeCpuMs([shell.pid ?? 0])).toBeGreaterThanOrEqual(380);
    } finally {
      shell.stdin.end();
      if (shell.exitCode === null && shell.signalCode === null) await once(shell, 'exit');
    }
  });

  it('has nothing to count for a process that has ended', async () => {
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    expect(processTreeCpuMs([ended.pid ?? 0])).toBeUndefined();
  });
});

describe('the scale benchmark choosing its server', () => {
  it('runs on a dev server unless told to run on the production stack', () => {
    expect(scaleServerKind(undefined)).toBe('dev');
    expect(scaleServerKind('dev')).toBe('dev');
    expect(scaleServerKind('stack')).toBe('stack');
    expect(() => scaleServerKind('postgres')).toThrow(/TOOLRAIL_BENCH_SCALE_SERVER=postgres: use dev .* or stack/);
  });
});

describe('the scale benchmark naming a workflow-task timeout', () => {
  it("gives its session, what timed out and its times in UTC, as the server's log prints them", () => {
    const at = (time: string): number => Date.parse(`2026-11-27T${time}Z`);
    expect(
      timeoutLine({
        workflowId: 'scale-4012',
        kind: 'start-to-close on the sticky queue',
        scheduledAt: at('17:39:28.274'),
        startedAt: at('17:39:30.160'),
        timedOutAt: at('17:39:40.163'),
      }),
    ).toBe(
      'scale-4012: start-to-close on the sticky queue, scheduled 17:39:28.274, started 17:39:30.160, timed out 17:39:40.163',
    );
  });

  it('says a task no worker took was never started', () => {
    const line = timeoutLine({
      workflowId: 'scale-7',
      kind: 'schedule-to-start on the sticky queue',
      scheduledAt: Date.parse('2026-11-27T09:00:00.000Z'),
      startedAt: undefined,
      timedOutAt: Date.parse('2026-11-27T09:00:05.000Z'),
    });
    expect(line).toBe(
      'scale-7: schedule-to-start on the sticky queue, scheduled 09:00:00.000, started –, timed out 09:00:05.000',
    );
  });
});
