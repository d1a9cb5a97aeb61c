import { setTimeout as sleep } from 'node:timers/promises';
import type { bareSession } from './scale/bare-workflows';
import { emptyRules } from './dispatch/measure-on-server';
import { createPacedModel } from '../test/helpers/paced-model';
import type { PacedModel } from '../test/helpers/paced-model';
import { settledServerRequests } from '../test/helpers/server-metrics';
import type { FeedEvent } from '../src/session';
import { billableActions, totalActions } from './live/billable-actions';
import type { BillableActions } from './live/billable-actions';
import { abortsSeen, liveVariants, withLiveBench } from './live/live-bench-setup';
import type { LiveBench, LiveSide, LiveVariant } from './live/live-bench-setup';
import { pacedTurns, piecesIn } from './live/paced-turns';

/** How many times each workload runs per side; `TOOLRAIL_BENCH_LIVE_ROUNDS` raises it (default 3). */
const rounds = Number(process.env['TOOLRAIL_BENCH_LIVE_ROUNDS'] ?? 3);
/** Turns of the session whose billable actions are counted (the five). */
const actionTurns = 5;

/** The models each side's worker serves, by id; each side has its own (their `sent` times apart). */
function benchModels(): Record<LiveVariant, Record<string, PacedModel>> {
  const models = () => ({
    // The workload: 120 pieces of text 25 ms apart (3 s), then the answer.
    latency: createPacedModel([{ pieces: Array.from({ length: 120 }, (_, index) => `w${index} `), gapMs: 25 }]),
    watched: createPacedModel(pacedTurns({ turns: 10, pieces: 20, gapMs: 5, toolMs: 0 })),
    many: createPacedModel(pacedTurns({ turns: 3, pieces: 20, gapMs: 5, toolMs: 0 })),
    actions: createPacedModel(pacedTurns({ turns: actionTurns, pieces: 40, gapMs: 25, toolMs: 100 })),
    ten: createPacedModel([
      { pieces: [], gapMs: 0, call: { id: 'ten', name: 'work', args: { ms: 10_000 } } },
      { pieces: ['Done.'], gapMs: 0 },
    ]),
    interrupt: createPacedModel([
      { pieces: [], gapMs: 0, call: { id: 'stop', name: 'stop_me', args: { ms: 600_000 } } },
      { pieces: ['Stopped.'], gapMs: 0 },
    ]),
  });
  return { 'without channel': models(), 'with channel': models() };
}

/**
 * `npm run bench -- live`: a session's live feed without and with the live channel (the local one),
 * side by side on a dev server of its own, the sides taking turns: how soon streamed text reaches a
 * watcher in the same process (the first piece, and every piece's p50 / p95 / max on 120 pieces
 * 25 ms apart); events per second to 1 and 100 watchers of one session and to one watcher each of
 * 100 sessions; billable Temporal actions per turn counted from history, plus queries and
 * heartbeats from the server's metrics, with 0, 1 and 100 watchers, against a bare workflow of the
 * same shape; heartbeats of a 10 s tool call, and how soon an interrupt stops a running tool.
 */
export async function runLiveBench(): Promise<void> {
  const models = benchModels();
  process.stdout.write(`\nlive channel: ${rounds} rounds per side, local dev server\n`);
  await withLiveBench(
    (variant) => models[variant],
    async (bench) => {
      await measureTextLatency(bench, models);
      await measureWatchers(bench);
      await measureActions(bench);
      await measureInterrupts(bench);
    },
  );
}

let sequence = 0;

/** Starts a session of `model` on a side. */
function start(side: LiveSide, model: string) {
  sequence += 1;
  return side.toolrail.startSession({
    sessionId: `live-${model}-${side.taskQueue}-${sequence}`,
    rules: emptyRules(),
    model: { id: model },
    firstMessage: 'Go.',
    interactive: false,
    limits: { closeWhenIdle: true },
  });
}

/** Follows a session to its end; calls `onEvent` with each event and the time it arrived. Returns the feed's (durable) events it saw. */
async function follow(
  side: LiveSide,
  sessionId: string,
  onEvent: (event: FeedEvent, at: number) => void = () => undefined,
): Promise<number> {
  let count = 0;
  for await (const event of side.toolrail.getSession(sessionId).events()) {
    onEvent(event, Date.now());
    if (!(event.type === 'text_delta' && event.live)) count += 1;
  }
  return count;
}

/** The server's count of `operation` requests, once its metrics include every request made so far. */
function settledCount(bench: LiveBench, operation: string): Promise<number> {
  return settledServerRequests(bench.metricsUrl, operation, bench.client);
}

async function measureTextLatency(bench: LiveBench, models: Record<LiveVariant, Record<string, PacedModel>>) {
  const rows: string[] = [];
  const results = new Map<LiveVariant, { first: number[]; pieces: number[]; signals: number[] }>(
    liveVariants.map((variant) => [variant, { first: [], pieces: [], signals: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const variant of liveVariants) {
      const side = bench.sides[variant];
      const session = await start(side, 'latency');
      const received = new Map<number, number>();
      await follow(side, session.sessionId, (event, at) => {
        if (event.type !== 'text_delta') return;
        for (const index of piecesIn(event.text)) if (!received.has(index)) received.set(index, at);
      });
      const sent = models[variant]['latency']?.sent.get(`${session.sessionId}/0/1`) ?? [];
      const result = results.get(variant);
      // A piece not seen live arrived with the answer, after the call ended: the answer's arrival is its time.
      const latencies = sent.map((time, index) => (received.get(index) ?? Number.NaN) - time);
      result?.first.push(latencies[0] ?? Number.NaN);
      result?.pieces.push(...latencies.filter((latency) => !Number.isNaN(latency)));
      const signals = (await historyOf(bench, session.sessionId)).filter(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'modelText',
      ).length;
      result?.signals.push(signals);
    }
  }
  for (const variant of liveVariants) {
    const result = results.get(variant);
    if (result === undefined) continue;
    const pieces = result.pieces.toSorted((a, b) => a - b);
    rows.push(
      `| ${variant} | ${ms(median(result.first))} | ${ms(quantile(pieces, 0.5))} | ${ms(quantile(pieces, 0.95))} | ${ms(pieces.at(-1) ?? Number.NaN)} | ${median(result.signals)} |`,
    );
  }
  print(
    `text of a streaming model call to a watcher in the same process: 120 pieces 25 ms apart, ${rounds} calls per side`,
    '| | first piece (median) | every piece p50 | p95 | max | text signals in history per call |',
    rows,
  );
}

async function measureWatchers(bench: LiveBench) {
  const cases: { label: string; sessions: number; watchers: number; model: string }[] = [
    { label: '1 watcher of one session (10 turns)', sessions: 1, watchers: 1, model: 'watched' },
    { label: '100 watchers of one session (10 turns)', sessions: 1, watchers: 100, model: 'watched' },
    { label: 'one watcher each of 100 sessions (3 turns)', sessions: 100, watchers: 1, model: 'many' },
  ];
  const rows: string[] = [];
  for (const { label, sessions, watchers, model } of cases) {
    const figures = new Map<LiveVariant, { rate: number[]; lag: number[]; queries: number[]; wall: number[] }>(
      liveVariants.map((variant) => [variant, { rate: [], lag: [], queries: [], wall: [] }]),
    );
    for (let round = 0; round < Math.min(rounds, sessions > 1 ? 1 : rounds); round++) {
      for (const variant of liveVariants) {
        const side = bench.sides[variant];
        const queriesBefore = await settledCount(bench, 'QueryWorkflow');
        const began = Date.now();
        const started = await Promise.all(Array.from({ length: sessions }, () => start(side, model)));
        const lags: number[] = [];
        const counts = await Promise.all(
          started.flatMap((session) =>
            Array.from({ length: watchers }, () =>
              follow(side, session.sessionId, (event, at) => {
                if (!(event.type === 'text_delta' && event.live)) lags.push(at - event.at);
              }),
            ),
          ),
        );
        const wall = Date.now() - began;
        const figure = figures.get(variant);
        figure?.rate.push(counts.reduce((sum, count) => sum + count, 0) / (wall / 1_000));
        figure?.lag.push(
          quantile(
            lags.toSorted((a, b) => a - b),
            0.95,
          ),
        );
        figure?.queries.push((await settledCount(bench, 'QueryWorkflow')) - queriesBefore);
        figure?.wall.push(wall);
      }
    }
    for (const variant of liveVariants) {
      const figure = figures.get(variant);
      if (figure === undefined) continue;
      rows.push(
        `| ${label} | ${variant} | ${median(figure.rate).toFixed(0)} | ${ms(median(figure.lag))} | ${median(figure.queries)} | ${(median(figure.wall) / 1_000).toFixed(1)} s |`,
      );
    }
  }
  print(
    'feed events to watchers (each session: turns of 20 pieces of text 5 ms apart and a call; the events of the feed delivered to all watchers, the text pieces apart)',
    '| workload | | events delivered per second | event lag p95 (delivered − workflow time) | queries | wall time |',
    rows,
  );
}

async function measureActions(bench: LiveBench) {
  const rows: string[] = [];
  const row = (label: string, actions: BillableActions) => {
    const perTurn = (count: number) => (count / actionTurns).toFixed(1);
    rows.push(
      `| ${label} | ${perTurn(totalActions(actions))} | ${totalActions(actions)} | ${actions.starts} | ${actions.activityAttempts} | ${actions.timers} | ${actions.upserts} | ${actions.signals} | ${actions.updates} | ${actions.localActivityTasks} | ${actions.queries} | ${actions.heartbeats} |`,
    );
  };
  // The floor: a bare workflow of the same shape (per turn a "model" activity and a tool activity, then a last "model" call).
  const bareId = `live-bare-${(sequence += 1)}`;
  const heartbeatsBefore = await settledCount(bench, 'RecordActivityTaskHeartbeat');
  await bench.client.workflow.execute<typeof bareSession>('bareSession', {
    taskQueue: bench.bareTaskQueue,
    workflowId: bareId,
    args: [{ turns: actionTurns, byReference: false }],
  });
  const bareHeartbeats = (await settledCount(bench, 'RecordActivityTaskHeartbeat')) - heartbeatsBefore;
  row('bare workflow', billableActions(await historyOf(bench, bareId), { heartbeats: bareHeartbeats }));
  for (const variant of liveVariants) {
    for (const watchers of [0, 1, 100]) {
      const side = bench.sides[variant];
      const [queriesBefore, beatsBefore] = [
        await settledCount(bench, 'QueryWorkflow'),
        await settledCount(bench, 'RecordActivityTaskHeartbeat'),
      ];
      const session = await start(side, 'actions');
      await Promise.all([session.result(), ...Array.from({ length: watchers }, () => follow(side, session.sessionId))]);
      const [queries, heartbeats] = [
        await settledCount(bench, 'QueryWorkflow'),
        await settledCount(bench, 'RecordActivityTaskHeartbeat'),
      ];
      row(
        `toolrail ${variant}, ${watchers} watcher${watchers === 1 ? '' : 's'}`,
        billableActions(await historyOf(bench, session.sessionId), {
          queries: queries - queriesBefore,
          heartbeats: heartbeats - beatsBefore,
        }),
      );
    }
  }
  print(
    `billable actions of a ${actionTurns}-turn session (each turn: 1 s of streamed text, then a 100 ms call), from its history and the server's metrics`,
    '| | per turn | in all | starts | activity attempts | timers | search-attribute upserts | signals | updates | local-activity tasks | queries | heartbeats |',
    rows,
  );
}

async function measureInterrupts(bench: LiveBench) {
  const rows: string[] = [];
  for (const variant of liveVariants) {
    const side = bench.sides[variant];
    const beatsBefore = await settledCount(bench, 'RecordActivityTaskHeartbeat');
    const ten = await start(side, 'ten');
    await ten.result();
    const heartbeats = (await settledCount(bench, 'RecordActivityTaskHeartbeat')) - beatsBefore;
    const stops: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const session = await start(side, 'interrupt');
      for await (const event of session.events()) if (event.type === 'tool_started') break;
      // Let the tool run a while (its heartbeats under way), then interrupt it.
      await sleep(1_500);
      const interruptedAt = Date.now();
      await session.interrupt();
      await session.result();
      stops.push((abortsSeen.get(session.sessionId) ?? Number.NaN) - interruptedAt);
    }
    rows.push(`| ${variant} | ${heartbeats} | ${ms(median(stops))} | ${ms(Math.max(...stops))} |`);
  }
  print(
    `interrupts: heartbeats that reached the server for one 10 s tool call; a running cancel tool stopped by an interrupt (${rounds} times)`,
    '| | heartbeats of a 10 s call | interrupt → tool aborted, median | max |',
    rows,
  );
}

function print(title: string, header: string, rows: string[]): void {
  const columns = header.split('|').length - 2;
  process.stdout.write([``, title, header, `|${'---|'.repeat(columns)}`, ...rows, ''].join('\n'));
}

function median(values: number[]): number {
  return quantile(
    values.toSorted((a, b) => a - b),
    0.5,
  );
}

/** The `q` quantile of sorted `values` (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

function ms(value: number): string {
  return Number.isNaN(value) ? '–' : `${Math.round(value)} ms`;
}

/** A workflow's history events (its current run). */
async function historyOf(bench: LiveBench, workflowId: string) {
  return (await bench.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}
