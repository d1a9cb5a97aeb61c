import { createHash } from 'node:crypto';
import pg from 'pg';
import type { LiveChannel, LiveListener, LiveState, LiveSubscription } from './live-channel';
import { LiveChannelError } from './live-channel-error';
import { readLiveMessage } from './live-message';
import type { LiveFeedMore, LiveMessage } from './live-message';

/** Options of {@link PostgresLiveChannel}. */
export interface PostgresLiveChannelOptions {
  /** A `postgres://` connection string: the content store's database does. */
  connectionString: string;
  /** Told when a connection fails (once per outage) and comes back; defaults to none. */
  onError?: (error: Error) => void;
}

/**
 * Largest message, in UTF-8 bytes of JSON: PostgreSQL refuses a `NOTIFY` payload of 8,000 bytes
 * or more (a feed message that does not fit goes as a `more`, read from the durable feed).
 */
const maxNotifyBytes = 7_900;
/** Messages waiting to be sent while the server is away; older ones are dropped beyond it. */
const maxQueuedMessages = 10_000;
/** Messages sent in one round trip at most. */
const maxBatchMessages = 64;
/** Longest pause between two attempts to connect again, in milliseconds. */
const maxReconnectDelayMs = 5_000;
/** How often the listening connection is checked with a query, in milliseconds (a dead connection may say nothing). */
const healthCheckIntervalMs = 10_000;
/** How long a connection attempt or a query may take, in milliseconds. */
const timeoutMs = 5_000;

/** One subscription of this process. */
interface Subscriber {
  readonly topic: string;
  readonly listener: LiveListener;
  up: boolean;
  closed: boolean;
}

/**
 * The live channel across machines, through PostgreSQL's `LISTEN` / `NOTIFY` (the content store's
 * database, no table): each topic is a notification channel named after its hash, each message one
 * notification of at most 7,900 bytes of JSON (a larger feed message goes as a `more`). A process
 * publishes on one connection (messages queued while it is away, up to 10,000, a `more` standing
 * for feed messages it had to drop; streamed text older than the outage dropped) and listens
 * on another; when the listening connection is lost every subscription goes `down` and comes `up`
 * again once it is back and listening (checked with a query every 10 s). Notifications are
 * delivered in commit order.
 */
export class PostgresLiveChannel implements LiveChannel {
  readonly description: string;
  readonly maxMessageBytes = maxNotifyBytes;
  readonly #connectionString: string;
  readonly #onError: (error: Error) => void;
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  #closed = false;

  // Publishing.
  #publisher: pg.Client | undefined;
  readonly #queue: LiveMessage[] = [];
  #flushing = false;
  readonly #dropped = new WeakSet<pg.Client>();
  /** The next attempt after a failure: until it comes, messages only queue. */
  #publishRetry: NodeJS.Timeout | undefined;
  #publishFailures = 0;
  /** Topics whose feed messages were dropped, and the end of the newest: a `more` goes first once it can send. */
  readonly #lostFeed = new Map<string, number>();

  // Listening: the connection, once it is connected; the one connecting or connected.
  #listener: pg.Client | undefined;
  #current: pg.Client | undefined;
  #listenFailures = 0;
  readonly #listening = new Set<string>();
  #reconnectTimer: NodeJS.Timeout | undefined;
  #healthTimer: NodeJS.Timeout | undefined;

  constructor({ connectionString, onError = () => undefined }: PostgresLiveChannelOptions) {
    if (!/^postgres(ql)?:\/\//i.test(connectionString))
      throw new LiveChannelError('INVALID_LIVE_CHANNEL', 'a PostgreSQL live channel needs a postgres:// URL');
    this.#connectionString = connectionString;
    this.#onError = onError;
    this.description = describe(connectionString);
  }

  publish(message: LiveMessage): void {
    if (this.#closed) return;
    // A message too large for a notification does not go: a feed message goes as a `more` in its place.
    const sent = Buffer.byteLength(JSON.stringify(message), 'utf8') > maxNotifyBytes ? moreFor(message) : message;
    if (sent === undefined) return;
    if (this.#queue.length >= maxQueuedMessages) this.#lose(this.#queue.shift());
    this.#queue.push(sent);
    void this.#flush();
  }

  async prepare(): Promise<void> {
    // Connects the publishing connection (a failure is reported, and the channel goes on without it).
    await this.#publishing();
  }

  subscribe(topic: string, listener: LiveListener): LiveSubscription {
    if (this.#closed) throw new LiveChannelError('LIVE_CHANNEL_CLOSED', `${this.description} is closed`);
    const subscriber: Subscriber = { topic, listener, up: false, closed: false };
    let topicSubscribers = this.#subscribers.get(topic);
    if (topicSubscribers === undefined) {
      topicSubscribers = new Set();
      this.#subscribers.set(topic, topicSubscribers);
    }
    topicSubscribers.add(subscriber);
    if (this.#listening.has(topic)) queueMicrotask(() => this.#setState(subscriber, 'up'));
    else if (this.#listener !== undefined) void this.#listen(this.#listener, [topic]);
    else this.#connect();
    return {
      get up() {
        return subscriber.up && !subscriber.closed;
      },
      close: () => {
        if (subscriber.closed) return;
        subscriber.closed = true;
        const remaining = this.#subscribers.get(topic);
        remaining?.delete(subscriber);
        if (remaining?.size !== 0) return;
        this.#subscribers.delete(topic);
        if (this.#listening.delete(topic))
          this.#listener?.query(`UNLISTEN ${channelName(topic)}`).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscribers.clear();
    this.#queue.length = 0;
    if (this.#reconnectTimer !== undefined) clearTimeout(this.#reconnectTimer);
    if (this.#healthTimer !== undefined) clearInterval(this.#healthTimer);
    if (this.#publishRetry !== undefined) clearTimeout(this.#publishRetry);
    const clients = [this.#current, this.#publisher].filter((client) => client !== undefined);
    this.#current = undefined;
    this.#listener = undefined;
    this.#publisher = undefined;
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }

  /** Sends what is queued, a batch per round trip, in order; on a failure drops the batch and connects again later. */
  async #flush(): Promise<void> {
    if (this.#flushing || this.#closed || this.#publishRetry !== undefined) return;
    this.#flushing = true;
    try {
      while ((this.#queue.length > 0 || this.#lostFeed.size > 0) && !this.#closed) {
        const client = await this.#publishing();
        if (client === undefined) return;
        const lost = [...this.#lostFeed].map(([topic, end]): LiveMessage => ({ kind: 'more', topic, end }));
        const batch = [...lost, ...this.#queue.splice(0, Math.max(0, maxBatchMessages - lost.length))];
        this.#lostFeed.clear();
        const values = batch.flatMap((message) => [channelName(message.topic), JSON.stringify(message)]);
        const calls = batch.map((_, index) => `pg_notify($${2 * index + 1}, $${2 * index + 2})`).join(', ');
        try {
          await client.query(`SELECT ${calls}`, values);
          if (this.#publishFailures > 0) this.#onError(new Error(`${this.description}: publishing again`));
          this.#publishFailures = 0;
        } catch (error) {
          for (const message of batch) this.#lose(message);
          this.#dropPublisher(client, error);
          return;
        }
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** The publishing connection, connecting it first; `undefined` (a later flush is scheduled) while it cannot. */
  async #publishing(): Promise<pg.Client | undefined> {
    if (this.#publisher !== undefined) return this.#publisher;
    const client = newClient(this.#connectionString, 'publish');
    client.on('error', (error) => this.#dropPublisher(client, error));
    try {
      await client.connect();
    } catch (error) {
      this.#dropPublisher(client, error);
      return undefined;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return undefined;
    }
    this.#publisher = client;
    return client;
  }

  #dropPublisher(client: pg.Client, error: unknown): void {
    // A connection fails once, whether its error event or its query says so first.
    if (this.#dropped.has(client)) return;
    this.#dropped.add(client);
    if (this.#publisher === client) this.#publisher = undefined;
    client.end().catch(() => undefined);
    this.#publishFailures += 1;
    if (this.#publishFailures === 1) this.#onError(asError(error, `${this.description}: cannot publish`));
    // Text streamed while the server was away is stale by the time it is back: only what the feed needs waits.
    for (let index = this.#queue.length - 1; index >= 0; index--)
      if (this.#queue[index]?.kind === 'text') this.#queue.splice(index, 1);
    if (this.#closed || this.#publishRetry !== undefined) return;
    this.#publishRetry = setTimeout(() => {
      this.#publishRetry = undefined;
      void this.#flush();
    }, backoff(this.#publishFailures));
    this.#publishRetry.unref();
  }

  /** Remembers that a feed message did not go out, so its subscribers are told to read the feed. */
  #lose(message: LiveMessage | undefined): void {
    const more = message && moreFor(message);
    if (more !== undefined) this.#lostFeed.set(more.topic, Math.max(more.end, this.#lostFeed.get(more.topic) ?? 0));
  }

  /** Connects the listening connection (unless it is, or is connecting) and listens to every topic. */
  #connect(): void {
    if (this.#closed || this.#current !== undefined || this.#reconnectTimer !== undefined) return;
    const client = newClient(this.#connectionString, 'listen');
    this.#current = client;
    client.on('error', (error) => this.#lostListener(client, error));
    client.on('end', () => this.#lostListener(client, new Error('the connection ended')));
    client.on('notification', ({ channel, payload }) => this.#notified(channel, payload));
    client.connect().then(
      async () => {
        if (this.#closed) return void client.end().catch(() => undefined);
        if (this.#current !== client) return;
        this.#listener = client;
        if (this.#listenFailures > 0) this.#onError(new Error(`${this.description}: listening again`));
        this.#listenFailures = 0;
        this.#healthTimer = setInterval(() => {
          client.query('SELECT 1').catch((error: unknown) => this.#lostListener(client, error));
        }, healthCheckIntervalMs);
        this.#healthTimer.unref();
        await this.#listen(client, [...this.#subscribers.keys()]);
      },
      (error: unknown) => this.#lostListener(client, error),
    );
  }

  /** Listens to `topics` on `client`; each topic's subscribers are up once its `LISTEN` is done. */
  async #listen(client: pg.Client, topics: string[]): Promise<void> {
    const wanted = topics.filter((topic) => !this.#listening.has(topic));
    if (wanted.length === 0) return;
    try {
      await client.query(wanted.map((topic) => `LISTEN ${channelName(topic)}`).join('; '));
    } catch (error) {
      this.#lostListener(client, error);
      return;
    }
    if (this.#listener !== client) return;
    for (const topic of wanted) {
      if (!this.#subscribers.has(topic)) continue;
      this.#listening.add(topic);
      for (const subscriber of this.#subscribers.get(topic) ?? []) this.#setState(subscriber, 'up');
    }
  }

  /** The listening connection failed: every subscription is down until a new one listens again. */
  #lostListener(client: pg.Client, error: unknown): void {
    client.end().catch(() => undefined);
    // An older connection's last words (its error, then its end) change nothing.
    if (this.#current !== client) return;
    this.#current = undefined;
    this.#listener = undefined;
    if (this.#healthTimer !== undefined) clearInterval(this.#healthTimer);
    this.#healthTimer = undefined;
    this.#listening.clear();
    for (const subscribers of this.#subscribers.values())
      for (const subscriber of subscribers) this.#setState(subscriber, 'down');
    this.#listenFailures += 1;
    if (this.#listenFailures === 1) this.#onError(asError(error, `${this.description}: cannot listen`));
    if (this.#closed || this.#subscribers.size === 0) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#connect();
    }, backoff(this.#listenFailures));
    this.#reconnectTimer.unref();
  }

  #notified(channel: string, payload: string | undefined): void {
    let message: LiveMessage | undefined;
    try {
      message = readLiveMessage(JSON.parse(payload ?? ''));
    } catch {
      return;
    }
    // The channel is named after the topic's hash: the topic itself says whose it is.
    if (message === undefined || channelName(message.topic) !== channel) return;
    for (const subscriber of this.#subscribers.get(message.topic) ?? []) {
      if (subscriber.closed) continue;
      try {
        subscriber.listener.onMessage(message);
      } catch (error) {
        this.#onError(asError(error, 'a live subscriber threw'));
      }
    }
  }

  #setState(subscriber: Subscriber, state: LiveState): void {
    const up = state === 'up';
    if (subscriber.closed || subscriber.up === up) return;
    subscriber.up = up;
    try {
      subscriber.listener.onState?.(state);
    } catch (error) {
      this.#onError(asError(error, 'a live subscriber threw'));
    }
  }
}

/** The `more` that stands for a feed message (undefined for any other). */
function moreFor(message: LiveMessage): LiveFeedMore | undefined {
  if (message.kind === 'more') return message;
  if (message.kind !== 'events') return undefined;
  return { kind: 'more', topic: message.topic, end: (message.events.at(-1)?.offset ?? -1) + 1 };
}

/** The notification channel of a topic: an identifier of 54 characters, safe unquoted. */
function channelName(topic: string): string {
  return `toolrail_live_${createHash('sha256').update(topic).digest('hex').slice(0, 40)}`;
}

/** A connection, named for `pg_stat_activity` (`toolrail-live-publish`, `toolrail-live-listen`). */
function newClient(connectionString: string, role: 'publish' | 'listen'): pg.Client {
  return new pg.Client({
    connectionString,
    application_name: `toolrail-live-${role}`,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
  });
}

/** The pause before attempt `failures + 1`: 100 ms doubling, at most 5 s. */
function backoff(failures: number): number {
  return Math.min(100 * 2 ** Math.max(0, failures - 1), maxReconnectDelayMs);
}

function asError(error: unknown, context: string): Error {
  return new Error(`${context}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** `postgres:user@host:port/db`: never the password. */
function describe(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`;
    return `postgres:${user}${url.host || 'localhost'}${url.pathname}`;
  } catch {
    return 'postgres:(unreadable connection string)';
  }
}
