import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLiveChannel } from '../../../src/live';
import type { FeedEvent } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { createPacedModel, wordsOf } from '../../helpers/paced-model';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { withoutTime } from '../../helpers/feed-without-time';

const watchers = 1_000;
const turns = 8;
const turnText = (turn: number): string =>
  `Turn ${turn}: checking the next order in the list, then the one after it, and so on until all are done. `;

/** What one watcher saw: where it started, and its events. */
interface Watched {
  from: number;
  events: FeedEvent[];
  /** It stayed to the session's end. */
  toTheEnd: boolean;
}

/** A seeded generator (mulberry32), so a failing run can be run again as it was. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('a thousand watchers coming and going through the live channel', () => {
  let connections: HarnessConnections;
  let directory: string;
  const channels: LocalLiveChannel[] = [];
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-live-watchers-'));
  });
  afterAll(async () => {
    await Promise.all(channels.map((channel) => channel.close()));
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('loses nothing for any of them, and adds nothing to the session: its history is the one of a session nobody watched', async () => {
    const script = Array.from({ length: turns }, (_, turn) => ({
      pieces: wordsOf(turnText(turn)),
      gapMs: 15,
      ...(turn < turns - 1 ? { call: { id: `check_${turn}`, name: 'check', args: { ms: 150 } } } : {}),
    }));
    const workerLive = new LocalLiveChannel({ directory });
    const clientLive = new LocalLiveChannel({ directory });
    channels.push(workerLive, clientLive);
    const random = seeded(48);
    await withSessionWorker(
      {
        connections,
        tools: [defineProbeTool({ name: 'check', probe: new ToolProbe() })],
        models: {
          watched: { model: createPacedModel(script), stream: true },
          unwatched: { model: createPacedModel(script), stream: true },
        },
        workerLive,
        clientLive,
      },
      async ({ client }) => {
        const start = (id: string) =>
          client.startSession({
            sessionId: uniqueName(`live-watchers-${id}`),
            rules: compileRules({ toolrail: 1, rules: [] }),
            model: { id },
            firstMessage: 'Check every order.',
            limits: { closeWhenIdle: true },
          });
        // The same session, nobody watching: what its history is.
        const unwatched = await start('unwatched');
        await unwatched.result();

        const session = await start('watched');
        // One watcher stays from start to end; the others come and go at random while the session runs.
        let seen = 0;
        let over = false;
        const whole = (async () => {
          const events: FeedEvent[] = [];
          for await (const event of session.events()) {
            events.push(event);
            if (!(event.type === 'text_delta' && event.live)) seen = event.offset + 1;
          }
          over = true;
          return events;
        })();
        const watchOnce = async (): Promise<Watched> => {
          const from = random() < 0.3 ? 0 : Math.floor(random() * Math.max(seen, 1));
          const stay = 1 + Math.floor(random() * 40);
          const leave = new AbortController();
          const events: FeedEvent[] = [];
          for await (const event of session.events({ from, signal: leave.signal })) {
            events.push(event);
            if (events.length >= stay) leave.abort();
          }
          return { from, events, toTheEnd: !leave.signal.aborted };
        };
        const runs: Promise<Watched>[] = [];
        for (let index = 0; index < watchers; index++) {
          runs.push(watchOnce());
          await sleep(over ? 0 : 5);
        }
        const reference = await whole;
        const all = await Promise.all(runs);

        // The session's durable events, as the watcher that stayed saw them: once, in order, to the end.
        const durable = reference.filter((event) => !(event.type === 'text_delta' && event.live));
        expect(durable.map((event) => event.offset)).toEqual(durable.map((_, index) => index));
        expect(durable.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });
        for (const { from, events, toTheEnd } of all) {
          const own = events.filter((event) => !(event.type === 'text_delta' && event.live));
          // Each saw the durable events from where it started, once and in order, the same as everyone (in
          // all but their workflow time `at`, which a reader of the closed session reads by replay).
          expect(own.map(withoutTime)).toEqual(durable.slice(from, from + own.length).map(withoutTime));
          if (toTheEnd) expect(own.at(-1)?.type).toBe('session_ended');
          // What live text it saw of a model call is that call's text from its start.
          const texts = new Map<number, string>();
          for (const event of events)
            if (event.type === 'text_delta' && event.live)
              texts.set(event.turn, (texts.get(event.turn) ?? '') + event.text);
          for (const [turn, text] of texts) expect(turnText(turn).startsWith(text)).toBe(true);
        }
        expect(all.filter((run) => run.events.length > 0)).toHaveLength(watchers);
        expect(all.some((run) => run.events.some((event) => event.type === 'text_delta'))).toBe(true);

        // The watchers wrote nothing to the session: its history has the events of the unwatched one.
        const [watchedHistory, unwatchedHistory] = await Promise.all([
          readSessionHistory(session),
          readSessionHistory(unwatched),
        ]);
        expect(watchedHistory.events.map((event) => event.type)).toEqual(
          unwatchedHistory.events.map((event) => event.type),
        );
      },
    );
  });
});
