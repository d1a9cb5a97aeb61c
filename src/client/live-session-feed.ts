import type { WorkflowClient } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { sessionTopic } from '../live';
import type { LiveChannel, LiveMessage, LiveState } from '../live';
import type { FeedEvent } from '../session';
import { LiveTextOrder } from './live-text-order';
import { FeedReader } from './feed-reader';
import { pollSessionFeed } from './poll-session-feed';

/** What the reader waits for: a message, a change of the subscription, or the end of a run. */
type Arrival = LiveMessage | { kind: 'state'; state: LiveState; ups: number } | { kind: 'closed'; runId: string };

/** How long a reader waits for its subscription to come up before it reads the feed without the channel, in ms. */
const connectGraceMs = 2_000;

/** Messages waiting for a reader that is behind, at most: beyond, they are dropped and it catches up from the feed. */
const maxWaiting = 10_000;

/**
 * A session's feed through a live channel, from offset `from` on: every event once, in order,
 * until the session's last run has closed (or `signal` aborts), with the text of streaming model
 * calls as it is written.
 *
 * It subscribes to the session's topic, then reads the durable feed (the `feed` query) from `from`
 * to catch up, and from then on delivers the events the channel brings; they are the durable ones
 * (the workers publish a workflow task's events once its completion is in the history). It reads
 * the feed again only when it must: events that skip an offset (a lost message, a publisher it did
 * not hear yet, a reader that fell behind), a `more`, or the subscription coming up again. While
 * the subscription is down it reads the feed as without a channel (history long-poll and a query
 * per workflow task), and goes back to the channel once it is up. One long poll per run waits for
 * the run to close (`GetWorkflowExecutionHistory` for its close event, which the server answers
 * when it closes): the session ends there, or continues in the next run.
 */
export async function* followLiveSessionFeed(
  client: WorkflowClient,
  sessionId: string,
  { from, signal, live }: { from: number; signal?: AbortSignal; live: LiveChannel },
): AsyncGenerator<FeedEvent, void, undefined> {
  const reader = new FeedReader(client, sessionId, signal);
  const inbox = new Inbox<Arrival>(signal);
  let pollStop: AbortController | undefined;
  let firstUp: (() => void) | undefined;
  // How often the subscription came up, and how often when the feed was last read to catch up.
  let ups = 0;
  let caughtUpAt = -1;
  const subscription = live.subscribe(sessionTopic(client.options.namespace, sessionId), {
    onMessage: (message) => inbox.push(message),
    onState: (state) => {
      if (state === 'up') ups += 1;
      inbox.push({ kind: 'state', state, ups });
      if (state !== 'up') return;
      pollStop?.abort();
      firstUp?.();
    },
  });
  // A subscription takes a moment to come up (a connection, a LISTEN): the reader waits for it a little
  // before it reads the feed without the channel.
  await new Promise<void>((resolve) => {
    firstUp = resolve;
    if (subscription.up || signal?.aborted) resolve();
    setTimeout(resolve, connectGraceMs).unref();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  firstUp = undefined;
  const stopWatching = new AbortController();
  const text = new LiveTextOrder();
  let next = from;
  let watching = false;
  /** The last event delivered was the session's `session_ended`. */
  let ended = false;
  try {
    for (let catchUp = true; !reader.aborted;) {
      if (!subscription.up) {
        // The channel is down: read the feed as without one, until it is up again or the session ends.
        pollStop = new AbortController();
        const stop = pollStop;
        if (subscription.up) continue;
        const pollSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
        for await (const event of pollSessionFeed(client, sessionId, { from: next, signal: pollSignal })) {
          next = event.offset + 1;
          ended = event.type === 'session_ended';
          yield event;
          yield* text.delivered(event);
        }
        pollStop = undefined;
        if (!stop.signal.aborted) return;
        catchUp = true;
        continue;
      }
      if (catchUp) {
        catchUp = false;
        caughtUpAt = ups;
        const { runId } = await reader.retrying(() => client.getHandle(sessionId).describe());
        if (!watching) {
          watching = true;
          void watchRunCloses(reader, client, sessionId, runId, stopWatching.signal, (closed) =>
            inbox.push({ kind: 'closed', runId: closed }),
          );
        }
        for await (const event of reader.drain(runId, next, undefined)) {
          if (event.offset < next) continue;
          next = event.offset + 1;
          ended = event.type === 'session_ended';
          yield event;
          yield* text.delivered(event);
        }
        continue;
      }
      const arrival = await inbox.next();
      if (arrival === undefined) {
        // Aborted, or the reader fell too far behind: it catches up from the feed.
        catchUp = true;
        continue;
      }
      switch (arrival.kind) {
        case 'state':
          // Up again: what was published while it was down is read from the feed.
          if (arrival.state === 'up' && arrival.ups > caughtUpAt) catchUp = true;
          break;
        case 'events':
          if ((arrival.events[0]?.offset ?? next) > next) {
            catchUp = true;
            break;
          }
          for (const event of arrival.events) {
            if (event.offset !== next) continue;
            next += 1;
            ended = event.type === 'session_ended';
            yield event;
            yield* text.delivered(event);
          }
          break;
        case 'more':
          if (arrival.end > next) catchUp = true;
          break;
        case 'text':
          yield* text.offered(arrival, next - 1);
          break;
        case 'closed':
          // The session's last run closed. After its `session_ended` (which the channel brought, the
          // subscription up) nothing follows; else what the run holds beyond what was delivered.
          if (ended) return;
          for await (const event of reader.drain(arrival.runId, next, undefined)) {
            if (event.offset < next) continue;
            next = event.offset + 1;
            yield event;
          }
          return;
        default:
          break;
      }
    }
  } catch (error) {
    // An abort ends the iteration quietly, whatever call it cut short.
    if (!reader.aborted) throw error;
  } finally {
    subscription.close();
    stopWatching.abort();
  }
}

/**
 * Waits for the session's runs to close, from `runId` on, following continue-as-new; calls
 * `onClosed` with the run that closed otherwise (the session's last). Quiet on abort.
 */
async function watchRunCloses(
  reader: FeedReader,
  client: WorkflowClient,
  sessionId: string,
  runId: string,
  signal: AbortSignal,
  onClosed: (runId: string) => void,
): Promise<void> {
  try {
    for (let run = runId; ;) {
      const closed = await reader.retrying(() =>
        client.withAbortSignal(signal, () => waitForClose(client, sessionId, run)),
      );
      const newRunId = closed?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (newRunId) run = newRunId;
      else return onClosed(run);
    }
  } catch {
    // Aborted (the reader is done), or the run is gone: the reader ends with the session's last event.
  }
}

/** The close event of a run, once it is closed (one long poll at a time; the server answers when it closes). */
async function waitForClose(
  client: WorkflowClient,
  sessionId: string,
  runId: string,
): Promise<temporal.api.history.v1.IHistoryEvent | undefined> {
  let nextPageToken: Uint8Array | null = null;
  for (;;) {
    const response: temporal.api.workflowservice.v1.IGetWorkflowExecutionHistoryResponse =
      await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId: sessionId, runId },
        nextPageToken,
        waitNewEvent: true,
        historyEventFilterType: temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
        skipArchival: true,
      });
    const closed = response.history?.events?.[0];
    if (closed !== undefined) return closed;
    nextPageToken = response.nextPageToken?.length ? response.nextPageToken : null;
  }
}

/**
 * Arrivals in order, for one reader: `next` resolves with the oldest, waiting for one if need be;
 * `undefined` when `signal` aborts, or once after it overflowed (what waited is dropped).
 */
class Inbox<T> {
  readonly #items: T[] = [];
  #overflowed = false;
  #wake: (() => void) | undefined;
  readonly #signal: AbortSignal | undefined;

  constructor(signal: AbortSignal | undefined) {
    this.#signal = signal;
    signal?.addEventListener('abort', () => this.#wake?.(), { once: true });
  }

  push(item: T): void {
    if (this.#items.length >= maxWaiting) {
      this.#items.length = 0;
      this.#overflowed = true;
    }
    this.#items.push(item);
    this.#wake?.();
  }

  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.#signal?.aborted) return undefined;
      if (this.#overflowed) {
        this.#overflowed = false;
        return undefined;
      }
      const item = this.#items.shift();
      if (item !== undefined) return item;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}
