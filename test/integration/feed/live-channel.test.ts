import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { LiveCancelledError, LocalLiveChannel, PostgresLiveChannel, sessionTopic } from '../../../src/live';
import type { LiveChannel, LiveState } from '../../../src/live';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { FeedEvent } from '../../../src/session';
import { defineTool } from '../../../src/tools';
import { harnessConnectionArgs } from '../../e2e/support/run-cli';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { startPostgres } from '../../harness/start-postgres';
import type { TestPostgres } from '../../harness/start-postgres';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { createPacedModel, wordsOf } from '../../helpers/paced-model';
import { pollUntil } from '../../helpers/poll-until';
import { settledServerRequests } from '../../helpers/server-metrics';
import { readSessionHistory } from '../../helpers/session-history';
import { testContentDirectory, withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf, toolResultOf } from '../../helpers/transcript-entries';
import { withoutTime } from '../../helpers/feed-without-time';

const noRules = compileRules({ toolrail: 1, rules: [] });
const repoRoot = path.resolve(__dirname, '../../..');
const cliPath = path.join(repoRoot, 'bin', 'toolrail.cjs');
const firstAnswer = 'Let me look that up for you in the ticket system before I answer anything at all.';
const lastAnswer = 'The ticket is open and a human will get back to you within the day, thank you for waiting.';

/** The durable events (not the live text) of a reader's events. */
const durable = (events: readonly FeedEvent[]): FeedEvent[] =>
  events.filter((event) => !(event.type === 'text_delta' && event.live));

/**
 * An event without its workflow time: a reader of the closed session reads it by replay, which may
 * set the clock a few milliseconds apart where a query met a local activity (docs/live-feed.md).
 */

/** The live text a reader saw, by `turn/attempt`, joined. */
function liveText(events: readonly FeedEvent[]): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const event of events)
    if (event.type === 'text_delta' && event.live)
      texts[`${event.turn}/${event.attempt}`] = (texts[`${event.turn}/${event.attempt}`] ?? '') + event.text;
  return texts;
}

/** Every event of the session as a reader without a channel reads it (queries), after the session ended. */
async function feedWithoutChannel(client: ToolrailClient, sessionId: string): Promise<FeedEvent[]> {
  const reader = new ToolrailClient({ client: client.temporal, taskQueue: client.taskQueue });
  const events: FeedEvent[] = [];
  for await (const event of reader.getSession(sessionId).events()) events.push(event);
  return events;
}

/** The offsets of `events`, which must be `from`, `from + 1`, … */
function expectContiguous(events: readonly FeedEvent[], from = 0): void {
  expect(events.map((event) => event.offset)).toEqual(events.map((_, index) => from + index));
}

describe('the live channel beside the feed', () => {
  let connections: HarnessConnections;
  let directory: string;
  const channels: LiveChannel[] = [];
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-live-feed-'));
  });
  afterAll(async () => {
    await Promise.all(channels.map((channel) => channel.close()));
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** A local channel in this test's directory (the worker and the client each open their own, as separate processes do). */
  function localChannel(): LocalLiveChannel {
    const channel = new LocalLiveChannel({ directory });
    channels.push(channel);
    return channel;
  }

  it("brings a streaming model's text to a watcher piece by piece and the events once, in order, with one query and no text signal", async () => {
    const model = createPacedModel([
      { pieces: wordsOf(firstAnswer), gapMs: 15, call: { id: 'look', name: 'lookup', args: { ms: 200 } } },
      { pieces: wordsOf(lastAnswer), gapMs: 15 },
    ]);
    const probe = new ToolProbe();
    const metricsUrl = inject('temporalMetricsUrl');
    await withSessionWorker(
      {
        connections,
        tools: [defineProbeTool({ name: 'lookup', probe })],
        models: { paced: { model, stream: true } },
        workerLive: localChannel(),
        clientLive: localChannel(),
      },
      async ({ client }) => {
        const queriesBefore = await settledServerRequests(metricsUrl, 'QueryWorkflow', connections.client);
        const session = await client.startSession({
          sessionId: uniqueName('live-text'),
          rules: noRules,
          model: { id: 'paced' },
          firstMessage: 'Where is my ticket?',
          limits: { closeWhenIdle: true },
        });
        const watched: FeedEvent[] = [];
        for await (const event of session.events()) watched.push(event);
        const queries = (await settledServerRequests(metricsUrl, 'QueryWorkflow', connections.client)) - queriesBefore;

        // Each model call's text arrived piece by piece, as the model wrote it, and whole.
        expect(liveText(watched)).toEqual({ '0/1': firstAnswer, '1/1': lastAnswer });
        const pieces = watched.filter((event) => event.type === 'text_delta');
        expect(pieces).toHaveLength(wordsOf(firstAnswer).length + wordsOf(lastAnswer).length);
        // Each piece follows its model call's start and comes before its answer.
        for (const turn of [0, 1]) {
          const started = watched.findIndex((event) => event.type === 'model_call_started' && event.turn === turn);
          const answered = watched.findIndex((event) => event.type === 'model_responded' && event.turn === turn);
          const positions = watched.flatMap((event, index) =>
            event.type === 'text_delta' && event.turn === turn ? [index] : [],
          );
          expect(Math.min(...positions)).toBeGreaterThan(started);
          expect(Math.max(...positions)).toBeLessThan(answered);
        }
        // The durable events: once, in order, the same a reader without the channel reads.
        expectContiguous(durable(watched));
        expect(durable(watched).map(withoutTime)).toEqual(
          (await feedWithoutChannel(client, session.sessionId)).map(withoutTime),
        );
        expect(watched.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });

        // One query, to catch up at the start, for all the session's workflow tasks; no text in the history.
        const history = await readSessionHistory(session);
        expect(history.ofType('WORKFLOW_TASK_COMPLETED').length).toBeGreaterThan(3);
        expect(queries).toBe(1);
        expect(history.ofType('WORKFLOW_EXECUTION_SIGNALED')).toEqual([]);
      },
    );
  });

  it("lets `toolrail follow --live` print a streaming model's text on one line as it is written, and the events", async () => {
    const model = createPacedModel([
      { pieces: wordsOf(firstAnswer), gapMs: 15, call: { id: 'look', name: 'lookup', args: { hold: true } } },
      { pieces: wordsOf(lastAnswer), gapMs: 15 },
    ]);
    const probe = new ToolProbe();
    await withSessionWorker(
      {
        connections,
        tools: [defineProbeTool({ name: 'lookup', probe })],
        models: { paced: { model, stream: true } },
        workerLive: localChannel(),
      },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('live-follow'),
          rules: noRules,
          model: { id: 'paced' },
          firstMessage: 'Where is my ticket?',
          limits: { closeWhenIdle: true },
        });
        const follow = spawn(
          process.execPath,
          [cliPath, 'follow', session.sessionId, '--live', `local:${directory}`, ...harnessConnectionArgs()],
          {
            cwd: repoRoot,
            stdio: ['ignore', 'pipe', 'pipe'],
            // As `runCli`: only the arguments say where it connects; the workers' content store.
            env: {
              ...Object.fromEntries(
                Object.entries(process.env).filter(([name]) => !/^(TEMPORAL|TOOLRAIL)_/.test(name)),
              ),
              TOOLRAIL_CONTENT_STORE: testContentDirectory(),
            },
          },
        );
        let stdout = '';
        let stderr = '';
        follow.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => follow.once('exit', (code) => resolve(code)));
        // Once it shows the tool running, the call ends and the last model call streams while it follows.
        await new Promise<void>((resolve) =>
          follow.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString();
            if (stdout.includes('lookup runs [look]')) resolve();
          }),
        );
        probe.release('look');
        expect(await exited).toBe(0);
        expect(stderr).toBe('');
        const lines = stdout.trimEnd().split('\n');
        expect(lines).toContain(`[turn 1] model writes: ${lastAnswer}`);
        expect(lines.at(-1)).toBe('the session completed');
        await session.result();
      },
    );
  });

  it('stops a cancel tool through the channel when the session is interrupted, while a 10 s tool sends at most 2 heartbeats', async () => {
    const metricsUrl = inject('temporalMetricsUrl');
    const aborts: unknown[] = [];
    const work = defineTool({
      name: 'work',
      description: 'Works for a while; stops when aborted.',
      inputSchema: z.object({ ms: z.number().int() }),
      concurrency: 'READ_ONLY',
      interruptBehavior: 'cancel',
      execute: async ({ ms }, { signal }) => {
        try {
          await sleep(ms, undefined, { signal });
        } catch (error) {
          aborts.push(signal.reason);
          throw error;
        }
        return 'worked';
      },
    });
    const model = createScriptedModel([
      toolCallResponse('work', { ms: 10_000 }, { id: 'ten' }),
      textResponse('Done.'),
      toolCallResponse('work', { ms: 600_000 }, { id: 'endless' }),
    ]);
    await withSessionWorker(
      {
        connections,
        tools: [work],
        scriptedModels: { worker: model },
        workerLive: localChannel(),
        clientLive: localChannel(),
      },
      async ({ client }) => {
        // A 10 s call: the SDK's throttle (80% of its 10 s heartbeat timeout) lets two heartbeats through.
        const before = await settledServerRequests(metricsUrl, 'RecordActivityTaskHeartbeat', connections.client);
        const session = await client.startSession({
          sessionId: uniqueName('live-interrupt'),
          rules: noRules,
          model: { provider: 'scripted', model: 'worker' },
          firstMessage: 'Work ten seconds.',
        });
        for await (const event of session.events()) if (event.type === 'run_ended') break;
        const heartbeats =
          (await settledServerRequests(metricsUrl, 'RecordActivityTaskHeartbeat', connections.client)) - before;
        expect(heartbeats).toBeGreaterThan(0);
        expect(heartbeats).toBeLessThanOrEqual(2);

        await session.send('Work until I say stop.');
        await pollUntil(
          () => session.ruleState(),
          (state) => state.runningCalls.some((call) => call.callId === 'endless'),
        );
        await session.interrupt();
        await pollUntil(
          () => session.status(),
          (status) => status.lastRunEnd === 'interrupted',
        );
        // The abort came through the channel, not in the answer to a heartbeat.
        expect(aborts).toEqual([expect.any(LiveCancelledError)]);
        const transcript = await session.transcript();
        expect(toolResultOf(transcript, 'endless')).toMatchObject({ isError: true, code: 'INTERRUPTED' });
        expect(entriesOf(transcript, 'run-end').map((entry) => entry.reason)).toEqual(['answered', 'interrupted']);
        await session.end();
        await session.result();
      },
    );
  });
});

describe('the PostgreSQL live channel under a session', () => {
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

  it('falls back to the feed while its PostgreSQL is stopped, then streams on the channel again: every event once, in order', async () => {
    const model = createPacedModel([
      {
        pieces: wordsOf(firstAnswer).concat(wordsOf(firstAnswer)),
        gapMs: 40,
        call: { id: 'look', name: 'lookup', args: { hold: true } },
      },
      { pieces: wordsOf(lastAnswer), gapMs: 15 },
    ]);
    const probe = new ToolProbe();
    const workerLive = new PostgresLiveChannel({ connectionString: postgres.url });
    const clientLive = new PostgresLiveChannel({ connectionString: postgres.url });
    // What the watcher's subscription goes through: the same connection, seen from a second subscription.
    const states: LiveState[] = [];
    try {
      await withSessionWorker(
        {
          connections,
          tools: [defineProbeTool({ name: 'lookup', probe })],
          models: { paced: { model, stream: true } },
          workerLive,
          clientLive,
        },
        async ({ client }) => {
          const sessionId = uniqueName('live-pg-outage');
          clientLive.subscribe(sessionTopic(connections.namespace, sessionId), {
            onMessage: () => undefined,
            onState: (state) => states.push(state),
          });
          const session = await client.startSession({
            sessionId,
            rules: noRules,
            model: { id: 'paced' },
            firstMessage: 'Where is my ticket?',
            limits: { closeWhenIdle: true },
          });
          const watched: FeedEvent[] = [];
          let seenWhileDown: FeedEvent[] = [];
          const watching = (async () => {
            for await (const event of session.events()) {
              watched.push(event);
              if (states.at(-1) === 'down') seenWhileDown.push(event);
            }
          })();
          // Mid-stream: the channel's server stops.
          await pollUntil(
            () => Promise.resolve(watched),
            (events) => events.filter((event) => event.type === 'text_delta').length >= 3,
          );
          await postgres.pause();
          await pollUntil(
            () => Promise.resolve(states),
            (all) => all.at(-1) === 'down',
          );
          // The watcher goes on through the feed: the model's answer and the tool's start reach it.
          await probe.started('look');
          await pollUntil(
            () => Promise.resolve(watched),
            (events) => events.some((event) => event.type === 'tool_started'),
            { timeoutMs: 60_000 },
          );
          await postgres.resume();
          await pollUntil(
            () => Promise.resolve(states),
            (all) => all.at(-1) === 'up',
            { timeoutMs: 60_000 },
          );
          const beforeUp = seenWhileDown;
          seenWhileDown = [];
          probe.release('look');
          await watching;

          expect(beforeUp.some((event) => event.type === 'tool_started')).toBe(true);
          // Back on the channel: the last model call's text came piece by piece again.
          expect(liveText(watched)['1/1']).toBe(lastAnswer);
          expectContiguous(durable(watched));
          expect(durable(watched).map(withoutTime)).toEqual(
            (await feedWithoutChannel(client, sessionId)).map(withoutTime),
          );
          expect(watched.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });
        },
      );
    } finally {
      await workerLive.close();
      await clientLive.close();
    }
  });
});
