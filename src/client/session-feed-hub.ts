import type { WorkflowClient } from '@temporalio/client';
import { sessionTopic } from '../live';
import type { LiveChannel, LiveMessage, LiveState, LiveSubscription, LiveText } from '../live';
import type { FeedEvent } from '../session';
import { FeedReader } from './feed-reader';
import { pollSessionFeed } from './poll-session-feed';
import { whenSessionCloses } from './session-closes';

/** What a hub holds, in the order it learnt it: durable events (consecutive offsets), and live text. */
export type HubItem = { event: FeedEvent } | { piece: LiveText };

/** What the hub waits for: a message, a change of its subscription, or the end of the session's last run. */
type Arrival =
  | LiveMessage
  | { kind: 'state'; state: LiveState; ups: number }
  /** The session's last run closed; `waited`: the hub gave the channel time to bring its last events. */
  | { kind: 'closed'; runId: string; waited?: true };

/** How long a hub waits for its subscription to come up before it reads the feed without the channel, in ms. */
const connectGraceMs = 2_000;
/** How long a hub waits for the channel to bring a closed session's last events before it reads them, in ms. */
const closeGraceMs = 2_000;
/** Messages waiting for a hub that is behind, at most: beyond, they are dropped and it catches up from the feed. */
const maxWaiting = 10_000;
/** Items a hub keeps for the readers that join (the newest); beyond, the oldest thousand go. */
const maxItems = 8_192;

const hubs = new WeakMap<LiveChannel, WeakMap<WorkflowClient, Map<string, SessionFeedHub>>>();

/**
 * The hub of one session's feed on one client and channel: the one its other readers share, or a
 * new one. Release it when done.
 */
export function acquireSessionFeedHub(client: WorkflowClient, live: LiveChannel, sessionId: string): SessionFeedHub {
  let byClient = hubs.get(live);
  if (byClient === undefined) {
    byClient = new WeakMap();
    hubs.set(live, byClient);
  }
  let sessions = byClient.get(client);
  if (sessions === undefined) {
    sessions = new Map();
    byClient.set(client, sessions);
  }
  const existing = sessions.get(sessionId);
  const hub =
    existing !== undefined && existing.error === undefined
      ? existing
      : new SessionFeedHub(client, live, sessionId, (stopped) => {
          if (sessions.get(sessionId) === stopped) sessions.delete(sessionId);
        });
  sessions.set(sessionId, hub);
  hub.readers += 1;
  return hub;
}

/**
 * One session's feed, read once for all its readers in this process: one subscription to its topic,
 * one read of the durable feed when it starts (what the current run holds) and after the channel
 * lost something, one
 * poll of the feed while the channel is down, one wait for the session's end. It keeps the newest
 * events and live text it learnt, so a reader that joins (or comes back) at a recent offset is
 * served from it without a query; each reader orders live text itself (`LiveTextOrder`).
 */
export class SessionFeedHub {
  /** How many readers hold it. */
  readers = 0;
  /** The items held, the oldest first; `base` is the absolute number of the first. */
  readonly items: HubItem[] = [];
  base = 0;
  /** The offset of the oldest durable event held (or where the hub started, before any). */
  first = 0;
  /** The offset the next durable event gets; undefined until the first read. */
  next: number | undefined;
  /** The session's last run has closed, and the hub holds all its events. */
  closed = false;
  /** What stopped the hub, for its readers to throw. */
  error: Error | undefined;
  /** Resolves once the hub has read the feed the first time (or failed). */
  readonly ready: Promise<void>;

  readonly #client: WorkflowClient;
  readonly #sessionId: string;
  readonly #stop = new AbortController();
  readonly #reader: FeedReader;
  readonly #subscription: LiveSubscription;
  readonly #arrivals: Arrival[] = [];
  readonly #forget: (hub: SessionFeedHub) => void;
  #readied: (() => void) | undefined;
  /** The absolute number of the item of each offset held, from `first` on. */
  #itemOfOffset: number[] = [];
  #overflowed = false;
  #ended = false;
  /** The session's last run, once the hub knows it closed. */
  #closedRun: string | undefined;
  #wakeHub: (() => void) | undefined;
  #wakeReaders: (() => void)[] = [];
  #pollStop: AbortController | undefined;
  #firstUp: (() => void) | undefined;
  #ups = 0;
  #stopWaiting: (() => void) | undefined;

  constructor(client: WorkflowClient, live: LiveChannel, sessionId: string, forget: (hub: SessionFeedHub) => void) {
    this.#client = client;
    this.#sessionId = sessionId;
    this.#forget = forget;
    this.#reader = new FeedReader(client, sessionId, this.#stop.signal);
    this.#subscription = live.subscribe(sessionTopic(client.options.namespace, sessionId), {
      onMessage: (message) => this.#arrive(message),
      onState: (state) => {
        if (state === 'up') this.#ups += 1;
        this.#arrive({ kind: 'state', state, ups: this.#ups });
        if (state !== 'up') return;
        this.#pollStop?.abort();
        this.#firstUp?.();
      },
    });
    this.ready = new Promise((resolve) => (this.#readied = resolve));
    void this.#run();
  }

  /** A reader is done with it; the last one stops it (and its calls to the server: none is left running). */
  release(): void {
    this.readers -= 1;
    if (this.readers > 0) return;
    this.#stop.abort();
    this.#subscription.close();
    this.#stopWaiting?.();
    this.#wakeHub?.();
    this.#forget(this);
  }

  /** The absolute number of the item of durable event `offset`, when the hub holds it or it is the next. */
  itemOf(offset: number): number | undefined {
    if (this.next === undefined || offset < this.first || offset > this.next) return undefined;
    return offset === this.next ? this.base + this.items.length : this.#itemOfOffset[offset - this.first];
  }

  /** Resolves when the hub learns something new (or stops), or `signal` aborts. */
  changed(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted || this.error !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wakeReaders.push(resolve);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  #arrive(arrival: Arrival): void {
    if (this.#arrivals.length >= maxWaiting) {
      this.#arrivals.length = 0;
      this.#overflowed = true;
    }
    this.#arrivals.push(arrival);
    this.#wakeHub?.();
  }

  /** The next arrival; undefined when the hub stops, or once after it fell too far behind. */
  async #nextArrival(): Promise<Arrival | undefined> {
    for (;;) {
      if (this.#stop.signal.aborted) return undefined;
      if (this.#overflowed) {
        this.#overflowed = false;
        return undefined;
      }
      const arrival = this.#arrivals.shift();
      if (arrival !== undefined) return arrival;
      await new Promise<void>((resolve) => (this.#wakeHub = resolve));
      this.#wakeHub = undefined;
    }
  }

  async #run(): Promise<void> {
    // A subscription takes a moment to come up (a connection, a LISTEN): wait for it a little first.
    await new Promise<void>((resolve) => {
      this.#firstUp = resolve;
      if (this.#subscription.up) resolve();
      setTimeout(resolve, connectGraceMs).unref();
    });
    this.#firstUp = undefined;
    try {
      for (let catchUp = true, caughtUpAt = -1; !this.#stop.signal.aborted;) {
        if (!this.#subscription.up && this.next !== undefined) {
          await this.#pollWhileDown();
          if (this.closed) return;
          catchUp = true;
          continue;
        }
        if (catchUp) {
          catchUp = false;
          caughtUpAt = this.#ups;
          await this.#catchUp();
          this.#readied?.();
          continue;
        }
        const arrival = await this.#nextArrival();
        if (arrival === undefined) {
          catchUp = true;
          continue;
        }
        switch (arrival.kind) {
          case 'state':
            if (arrival.state === 'up' && arrival.ups > caughtUpAt) catchUp = true;
            break;
          case 'events': {
            const next = this.next ?? 0;
            if ((arrival.events[0]?.offset ?? next) > next) catchUp = true;
            else for (const event of arrival.events) this.#append(event);
            if (this.#ended && this.#closedRun !== undefined) return this.#finish();
            break;
          }
          case 'more':
            if (arrival.end > (this.next ?? 0)) catchUp = true;
            break;
          case 'text':
            this.#keep({ piece: arrival });
            break;
          case 'closed':
            // The run's last events may still be on their way through the channel: give them a moment
            // before reading them from the feed (a query on a closed run: a replay).
            this.#closedRun = arrival.runId;
            if (!this.#ended && arrival.waited === undefined && this.#subscription.up) {
              setTimeout(() => this.#arrive({ ...arrival, waited: true }), closeGraceMs).unref();
              break;
            }
            await this.#close(arrival.runId);
            return;
          default:
            break;
        }
      }
    } catch (error) {
      if (!this.#stop.signal.aborted)
        this.error = error instanceof Error ? error : new Error("the session's feed stopped", { cause: error });
    } finally {
      this.#readied?.();
      this.#wake();
    }
  }

  /**
   * Reads the current run's feed from where the hub is; the first time, all it holds (its window),
   * so a reader that joins later at any offset the run holds is served without a query.
   */
  async #catchUp(): Promise<void> {
    const { runId } = await this.#reader.retrying(() => this.#client.getHandle(this.#sessionId).describe());
    this.#stopWaiting ??= whenSessionCloses(this.#client, this.#sessionId, runId, (closed) =>
      this.#arrive({ kind: 'closed', runId: closed }),
    );
    if (this.next === undefined) this.#restartAt(0);
    for (let offset = this.next ?? 0; ;) {
      const page = await this.#reader.page(runId, offset);
      if (offset < page.oldest) {
        // The run no longer holds where the hub is: it goes on from the run's oldest event (a
        // reader reads the rest itself).
        this.#restartAt(page.oldest);
        offset = page.oldest;
        continue;
      }
      for (const event of page.events) this.#append(event);
      offset = page.next;
      if (page.next >= page.end || page.events.length === 0) return;
    }
  }

  /**
   * Reads the feed as without a channel (`pollSessionFeed`), until the subscription is up again or
   * the session ends.
   */
  async #pollWhileDown(): Promise<void> {
    const stop = new AbortController();
    this.#pollStop = stop;
    if (this.#subscription.up) return;
    const signal = AbortSignal.any([this.#stop.signal, stop.signal]);
    for await (const event of pollSessionFeed(this.#client, this.#sessionId, { from: this.next ?? 0, signal }))
      this.#append(event);
    this.#pollStop = undefined;
    if (!stop.signal.aborted && !this.#stop.signal.aborted) {
      this.closed = true;
      this.#wake();
    }
  }

  /** The session's last run closed: after its `session_ended` nothing follows; else what the run holds beyond. */
  async #close(runId: string): Promise<void> {
    this.#closedRun = runId;
    if (!this.#ended)
      for await (const event of this.#reader.drain(runId, this.next ?? 0, undefined)) this.#append(event);
    this.#finish();
  }

  #finish(): void {
    this.closed = true;
    this.#wake();
  }

  #append(event: FeedEvent): void {
    if (event.offset !== this.next) return;
    this.#itemOfOffset.push(this.base + this.items.length);
    this.next = event.offset + 1;
    this.#ended = event.type === 'session_ended';
    this.#keep({ event });
  }

  #keep(item: HubItem): void {
    this.items.push(item);
    if (this.items.length > maxItems) {
      const dropped = 1_024;
      this.items.splice(0, dropped);
      this.base += dropped;
      const firstKept = this.#itemOfOffset.findIndex((item) => item >= this.base);
      const kept = firstKept < 0 ? this.#itemOfOffset.length : firstKept;
      this.#itemOfOffset = this.#itemOfOffset.slice(kept);
      this.first += kept;
    }
    this.#wake();
  }

  /** The hub holds nothing, and goes on at `offset`. */
  #restartAt(offset: number): void {
    this.base += this.items.length;
    this.items.length = 0;
    this.#itemOfOffset = [];
    this.first = offset;
    this.next = offset;
    this.#wake();
  }

  #wake(): void {
    const waiting = this.#wakeReaders;
    this.#wakeReaders = [];
    for (const resolve of waiting) resolve();
  }
}
