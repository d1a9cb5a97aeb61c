import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { ToolrailClient } from '../src/client/toolrail-client';
import type { CompiledRuleSet } from '../src/rules';
import type { bareSession } from './scale/bare-workflows';
import { emptyRules } from './dispatch/measure-on-server';
import { forgetTaskQueue } from './scale/forget-task-queue';
import { cpuRate, loadLine, machineBusyMs, threadCpuMs, untilIdle } from './scale/process-stats';
import { readHistories } from './scale/scale-histories';
import { scaleServerKind, startScaleServer } from './scale/scale-server';
import type { ScaleServer } from './scale/scale-server';
import { scaleModelName } from './scale/scale-tool';
import { startScaleWorker } from './scale/scale-workers';
import type { ScaleWorkerProcess } from './scale/scale-workers';
import { printPhase } from './scale/print-scale-results';
import type { ScalePhase, ScaleRound, ScaleVariant } from './scale/scale-types';

/**
 * The workloads; `TOOLRAIL_BENCH_QUICK=1` (or `--quick`): shorter ones, about a quarter of an hour in all.
 * `baseline`: toolrail as another checkout has it runs beside this one in every phase.
 */
function scalePhases(quick: boolean, baseline: boolean): ScalePhase[] {
  const toolrails: ScaleVariant[] = baseline ? ['toolrail', 'toolrail baseline'] : ['toolrail'];
  const all: ScaleVariant[] = [...toolrails, 'bare', 'bare by reference'];
  const concurrent: ScaleVariant[] = [...toolrails, 'bare'];
  return quick
    ? [
        { title: 'one session of 40 turns', sessions: 1, turns: 40, rounds: 2, variants: all },
        { title: '100 sessions at once, 6 turns each', sessions: 100, turns: 6, rounds: 1, variants: concurrent },
        { title: '200 sessions at once, 6 turns each', sessions: 200, turns: 6, rounds: 2, variants: concurrent },
      ]
    : [
        { title: 'one session of 200 turns', sessions: 1, turns: 200, rounds: 3, variants: all },
        { title: '100 sessions at once, 6 turns each', sessions: 100, turns: 6, rounds: 3, variants: concurrent },
        // Five rounds: at 1,000 sessions one variant's rounds spread by a fifth of its median.
        { title: '1,000 sessions at once, 6 turns each', sessions: 1_000, turns: 6, rounds: 5, variants: concurrent },
      ];
}

/**
 * Busy time (summed over the cores, ms) a second below which the machine counts as quiet before a
 * round: a tenth of a core, above what the idle workers' polls and the server's own ticks use.
 */
const machineIdleMsPerSecond = 100;

/** Longest wait for a quiet machine before a round, ms; a round that waited so long says so. */
const machineSettleMaxMs = 120_000;

/**
 * How long after a round ends the server may still fire timers of the round's activities, ms: the
 * longest activity timeout either variant sets (bare's start-to-close, a minute), with a margin.
 */
const activityTimersDueMs = 62_000;

/** The task queue of a variant's worker (both bare variants run on the bare worker). */
function taskQueueOf(variant: ScaleVariant): string {
  if (variant === 'toolrail baseline') return 'scale-toolrail-baseline';
  return variant === 'toolrail' ? 'scale-toolrail' : 'scale-bare';
}

/**
 * `npm run bench -- scale`: toolrail sessions against a bare Temporal workflow of the same shape
 * (per turn one "model" activity that returns one call and one tool activity that returns 1 KB;
 * and the bare workflow with its results stored and returned by reference), side by side on a dev
 * server of their own, each on a worker process of its own, the variants taking turns round by
 * round. Prints, per turn, the CPU of the worker (also by thread), the server, the client (this
 * process) and the three together, history bytes and events, wall time; for many sessions at once,
 * turns per second, p99 turn latency, workflow-task waits and timeouts, and the worker's RSS round
 * by round; each as a ratio to bare. `TOOLRAIL_BENCH_SCALE_BASELINE=DIR`: toolrail as the checkout in DIR
 * has it (say, main, with its `node_modules`) runs beside this one, each figure also as a ratio to it.
 */
export async function runScaleBench(): Promise<void> {
  const quick = process.env['TOOLRAIL_BENCH_QUICK'] === '1';
  // TOOLRAIL_BENCH_SCALE_SESSIONS=1,1000 runs only the phases of those session counts.
  const only = process.env['TOOLRAIL_BENCH_SCALE_SESSIONS']?.split(',').map(Number);
  // TOOLRAIL_BENCH_SCALE_ROUNDS=10 runs every phase that many rounds (to tell a trend in RSS from the spread).
  const rounds = Number(process.env['TOOLRAIL_BENCH_SCALE_ROUNDS'] ?? 0);
  const baseline = process.env['TOOLRAIL_BENCH_SCALE_BASELINE'];
  const phases = scalePhases(quick, baseline !== undefined)
    .filter((phase) => only === undefined || only.includes(phase.sessions))
    .map((phase) => (Number.isInteger(rounds) && rounds > 0 ? { ...phase, rounds } : phase));
  const storeDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-bench-scale-'));
  const server = await startScaleServer(scaleServerKind(process.env['TOOLRAIL_BENCH_SCALE_SERVER']));
  const connection = await Connection.connect({ address: server.address });
  const workers: ScaleWorkerProcess[] = [];
  try {
    const common = { address: server.address, namespace: server.namespace, storeDirectory };
    const turns = [...new Set(phases.map((phase) => phase.turns))];
    const toolrailWorker = await startScaleWorker({
      ...common,
      variant: 'toolrail',
      taskQueue: taskQueueOf('toolrail'),
      turns,
    });
    workers.push(toolrailWorker);
    const baselineWorker =
      baseline === undefined
        ? undefined
        : await startScaleWorker({
            ...common,
            variant: 'toolrail',
            checkout: path.resolve(baseline),
            taskQueue: taskQueueOf('toolrail baseline'),
            turns,
          });
    if (baselineWorker) workers.push(baselineWorker);
    const bareWorker = await startScaleWorker({ ...common, variant: 'bare', taskQueue: taskQueueOf('bare'), turns });
    workers.push(bareWorker);
    const client = new Client({ connection, namespace: server.namespace });
    const toolrail = new ToolrailClient({ client, taskQueue: taskQueueOf('toolrail') });
    const toolrailBaseline = new ToolrailClient({ client, taskQueue: taskQueueOf('toolrail baseline') });
    const rules = emptyRules();
    process.stdout.write(
      `\nscale: toolrail against a bare Temporal workflow of the same shape${baseline ? ' and toolrail at the baseline checkout' : ''}, ${server.description}, ${os.cpus().length} cores${quick ? ' (quick)' : ''}; ${loadLine()}\n`,
    );
    let sequence = 0;
    const runnerOf = (variant: ScaleVariant, turns: number) =>
      variant === 'toolrail'
        ? (id: string) => runToolrailSession(toolrail, rules, id, turns)
        : variant === 'toolrail baseline'
          ? (id: string) => runToolrailSession(toolrailBaseline, rules, id, turns)
          : (id: string) => runBareSession(client, id, turns, variant === 'bare by reference');
    // One session of each variant before any round, not measured: this process's client (shared by
    // the variants, so the first one measured paid for its warm-up) and each worker are warm.
    for (const variant of new Set(phases.flatMap((phase) => phase.variants))) {
      if (variant === 'toolrail baseline' && baselineWorker === undefined) continue;
      await runnerOf(variant, Math.min(...turns))(`scale-warm-up-${(sequence += 1)}`);
      await forgetTaskQueue(client, taskQueueOf(variant));
    }
    for (const phase of phases) {
      const rounds: ScaleRound[][] = [];
      for (let round = 0; round < phase.rounds; round++) {
        const measured: ScaleRound[] = [];
        // The variants take turns, in a rotating order, so drift in the machine's load hits them alike.
        const order = phase.variants.map((_, index) => phase.variants[(index + round) % phase.variants.length]);
        for (const variant of order) {
          if (variant === undefined) continue;
          const worker =
            variant === 'toolrail' ? toolrailWorker : variant === 'toolrail baseline' ? baselineWorker : bareWorker;
          if (worker === undefined) continue;
          const ids = Array.from({ length: phase.sessions }, () => `scale-${(sequence += 1)}`);
          const run = runnerOf(variant, phase.turns);
          measured.push(await measureRound(variant, worker, server, ids, phase.turns, run, client));
          // Every round starts on a server that holds none of the rounds before.
          await forgetTaskQueue(client, taskQueueOf(variant));
        }
        rounds.push(measured);
      }
      printPhase(phase, rounds);
    }
    process.stdout.write(`(${loadLine()} at the end)\n`);
  } finally {
    for (const worker of workers) await worker.stop();
    await connection.close();
    await server.stop();
    rmSync(storeDirectory, { recursive: true, force: true });
  }
}

async function measureRound(
  variant: ScaleVariant,
  worker: ScaleWorkerProcess,
  server: ScaleServer,
  ids: readonly string[],
  turns: number,
  run: (id: string) => Promise<void>,
  client: Client,
): Promise<ScaleRound> {
  // The round starts on a quiet server and a quiet machine (no disk still writing back an earlier
  // run), and with this process's heap collected: no round pays for the garbage of the one before
  // (its histories read), whichever variant ran it. `npm run bench` runs with `--expose-gc`.
  gc?.();
  await untilIdle(() => server.cpuMs());
  const settleMs = await untilIdle(machineBusyMs, {
    idleMsPerSecond: machineIdleMsPerSecond,
    maxMs: machineSettleMaxMs,
  });
  if (settleMs >= machineSettleMaxMs)
    process.stdout.write(`(the machine stayed busy for two minutes before a ${variant} round; ${loadLine()})\n`);
  const before = await worker.stats();
  const threadsBefore = threadCpuMs(worker.pid);
  const serverBefore = server.cpuMs();
  const clientBefore = process.cpuUsage();
  let rssPeak = before.rss;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeak = Math.max(rssPeak, (await worker.stats()).rss);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const started = performance.now();
  await Promise.all(ids.map(run));
  const ended = performance.now();
  const clientCpu = process.cpuUsage(clientBefore);
  sampling = false;
  await sampler;
  const after = await worker.stats();
  const threadsAfter = threadCpuMs(worker.pid);
  const serverCpuMs = await serverCpuOfRound(server, serverBefore, ended);
  const history = await readHistories(client, ids, variant.startsWith('toolrail') ? 'callModel' : 'model');
  return {
    variant,
    turns: ids.length * turns,
    wallMs: ended - started,
    workerCpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
    workerThreadCpuMs:
      threadsBefore &&
      threadsAfter &&
      new Map([...threadsAfter].map(([kind, ms]) => [kind, ms - (threadsBefore.get(kind) ?? 0)])),
    serverCpuMs,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    workerRssPeak: Math.max(rssPeak, after.rss),
    workerRssAfter: after.rss,
    history,
  };
}

/**
 * The server's CPU (ms) for one round: from `serverBefore` until the timers the round's activities
 * left have come due (`activityTimersDueMs` after the round `ended`, at `performance.now()`) and the
 * server is idle again, less what an idle server spends in that tail. So each variant pays for its
 * own activities' timers (toolrail's heartbeat timeouts come due within half a minute, bare's
 * start-to-close within a minute), and none for another round's.
 */
async function serverCpuOfRound(
  server: ScaleServer,
  serverBefore: number | undefined,
  ended: number,
): Promise<number | undefined> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, ended + activityTimersDueMs - performance.now())));
  await untilIdle(() => server.cpuMs());
  const serverAfter = server.cpuMs();
  const tailMs = performance.now() - ended;
  const idleMsPerSecond = await cpuRate(() => server.cpuMs(), 5_000);
  if (serverBefore === undefined || serverAfter === undefined || idleMsPerSecond === undefined) return undefined;
  return serverAfter - serverBefore - (idleMsPerSecond * tailMs) / 1_000;
}

async function runToolrailSession(
  toolrail: ToolrailClient,
  rules: CompiledRuleSet,
  sessionId: string,
  turns: number,
): Promise<void> {
  const session = await toolrail.startSession({
    sessionId,
    rules,
    model: { provider: 'scripted', model: scaleModelName(turns) },
    firstMessage: 'Read the document, page by page.',
    interactive: false,
    limits: { maxTurnsPerRun: turns + 5 },
  });
  const status = await session.result();
  if (status.counters.toolCalls !== turns)
    throw new Error(`session ${sessionId} ran ${status.counters.toolCalls} calls`);
}

async function runBareSession(client: Client, workflowId: string, turns: number, byReference: boolean): Promise<void> {
  const calls = await client.workflow.execute<typeof bareSession>('bareSession', {
    taskQueue: taskQueueOf('bare'),
    workflowId,
    args: [{ turns, byReference }],
  });
  if (calls !== turns) throw new Error(`bare session ${workflowId} ran ${calls} calls`);
}
