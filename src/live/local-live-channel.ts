import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, unlinkSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LiveChannel, LiveListener, LiveState, LiveSubscription } from './live-channel';
import { LiveChannelError } from './live-channel-error';
import { readLiveMessage } from './live-message';
import type { LiveMessage } from './live-message';

/** Options of {@link LocalLiveChannel}. */
export interface LocalLiveChannelOptions {
  /**
   * The directory of the publishers' sockets, shared by every process of one deployment on the
   * machine. Defaults to {@link defaultLocalLiveDirectory}.
   */
  directory?: string;
  /** Told about problems the channel works around (a socket it cannot reach); defaults to none. */
  onError?: (error: Error) => void;
}

/** Largest message the local channel carries, in UTF-8 bytes of JSON. */
const maxLocalMessageBytes = 1_048_576;
/** Bytes a subscriber may fall behind by before its connection is cut (it then catches up from the durable feed). */
const maxBufferedBytes = 16 * 1_048_576;
/** How often the directory is read again, in case a change notice was missed, in milliseconds. */
const rescanIntervalMs = 5_000;
/** Pause before a lost connection to a publisher that still runs is made again, in milliseconds. */
const reconnectDelayMs = 100;
/** Times a socket that refuses connections is tried again soon (then at each scan). */
const maxQuickRetries = 10;

/**
 * The per-user directory of the local channel's sockets: `$XDG_RUNTIME_DIR/toolrail/live`, else
 * `<tmpdir>/toolrail-<uid>/live`.
 */
export function defaultLocalLiveDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'toolrail', 'live');
  const user = process.getuid?.() ?? os.userInfo().username;
  return path.join(os.tmpdir(), `toolrail-${user}`, 'live');
}

/** One subscription of this process. */
interface Subscriber {
  readonly topic: string;
  readonly listener: LiveListener;
  up: boolean;
  closed: boolean;
}

/** A connection to another process's socket (a publisher). */
interface Peer {
  readonly path: string;
  readonly socket: net.Socket;
  open: boolean;
  /** Topics the publisher confirmed: it sends their messages from now on. */
  readonly acked: Set<string>;
}

/**
 * The live channel of one machine, with no set-up: each publishing process (a worker) serves a
 * Unix domain socket in a per-user directory (mode 0700), and each subscribing process connects
 * to every socket there, watching the directory for new ones. One connection per pair of
 * processes carries every topic; in-process subscribers hear this process's own messages
 * directly. A subscription is `up` once every publisher it knows has confirmed its topic, so a
 * publisher that appears takes it `down` until then (its subscriber then catches up from the
 * durable feed). A socket left by a process that died is removed. Not on Windows.
 */
export class LocalLiveChannel implements LiveChannel {
  readonly description: string;
  readonly maxMessageBytes = maxLocalMessageBytes;
  readonly directory: string;
  readonly #onError: (error: Error) => void;
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  readonly #peers = new Map<string, Peer>();
  /** Socket paths that refused a connection from a process that still runs (not listening yet), and how often. */
  readonly #refused = new Map<string, number>();
  #server: net.Server | undefined;
  #serverPath: string | undefined;
  /** Resolves once the socket is served. */
  #listening: Promise<void> | undefined;
  readonly #serverConnections = new Map<net.Socket, Set<string>>();
  #watcher: FSWatcher | undefined;
  #rescanTimer: NodeJS.Timeout | undefined;
  #scanQueued = false;
  #scanned = false;
  #closed = false;

  constructor({ directory = defaultLocalLiveDirectory(), onError = () => undefined }: LocalLiveChannelOptions = {}) {
    if (process.platform === 'win32')
      throw new LiveChannelError(
        'LIVE_CHANNEL_UNSUPPORTED',
        'the local live channel needs Unix domain sockets, which Windows does not list in a directory: use a postgres:// channel',
      );
    this.directory = path.resolve(directory);
    this.description = `local:${this.directory}`;
    this.#onError = onError;
  }

  publish(message: LiveMessage): void {
    if (this.#closed) return;
    this.#serve();
    const line = `${JSON.stringify({ m: message })}\n`;
    for (const [socket, topics] of this.#serverConnections) {
      if (!topics.has(message.topic)) continue;
      // A subscriber this far behind is cut off: it reconnects and catches up from the durable feed.
      if (socket.writableLength > maxBufferedBytes) socket.destroy();
      else socket.write(line);
    }
    const local = this.#subscribers.get(message.topic);
    if (local !== undefined && local.size > 0) queueMicrotask(() => this.#deliver(message));
  }

  prepare(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#serve();
    return this.#listening ?? Promise.resolve();
  }

  subscribe(topic: string, listener: LiveListener): LiveSubscription {
    if (this.#closed) throw new LiveChannelError('LIVE_CHANNEL_CLOSED', `${this.description} is closed`);
    const subscriber: Subscriber = { topic, listener, up: false, closed: false };
    let topicSubscribers = this.#subscribers.get(topic);
    if (topicSubscribers === undefined) {
      topicSubscribers = new Set();
      this.#subscribers.set(topic, topicSubscribers);
      for (const peer of this.#peers.values()) if (peer.open) send(peer.socket, { sub: topic });
    }
    topicSubscribers.add(subscriber);
    this.#watch();
    queueMicrotask(() => this.#updateStates());
    return {
      get up() {
        return subscriber.up && !subscriber.closed;
      },
      close: () => {
        if (subscriber.closed) return;
        subscriber.closed = true;
        const remaining = this.#subscribers.get(topic);
        remaining?.delete(subscriber);
        if (remaining?.size === 0) {
          this.#subscribers.delete(topic);
          for (const peer of this.#peers.values()) {
            peer.acked.delete(topic);
            if (peer.open) send(peer.socket, { unsub: topic });
          }
        }
        if (this.#subscribers.size === 0) this.#unwatch();
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unwatch();
    this.#subscribers.clear();
    for (const socket of this.#serverConnections.keys()) socket.destroy();
    const server = this.#server;
    if (server !== undefined) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (this.#serverPath !== undefined) unlinkQuietly(this.#serverPath);
    }
  }

  /** Serves this process's socket (once): other processes connect to it to hear what it publishes. */
  #serve(): void {
    if (this.#server !== undefined) return;
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const socketPath = path.join(this.directory, `${process.pid}-${randomBytes(4).toString('hex')}.sock`);
    this.#serverPath = socketPath;
    const server = net.createServer((socket) => {
      const topics = new Set<string>();
      this.#serverConnections.set(socket, topics);
      readLines(socket, (value) => {
        const request = value as { sub?: unknown; unsub?: unknown };
        if (typeof request.sub === 'string') {
          topics.add(request.sub);
          send(socket, { ack: request.sub });
        } else if (typeof request.unsub === 'string') topics.delete(request.unsub);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => this.#serverConnections.delete(socket));
    });
    server.on('error', (error) => this.#onError(error));
    this.#listening = new Promise((resolve) =>
      server.listen(socketPath, () => {
        try {
          chmodSync(socketPath, 0o600);
        } catch (error) {
          this.#onError(error as Error);
        }
        resolve();
      }),
    );
    this.#server = server;
  }

  /** Starts following the directory (once there are subscribers): its sockets now, and those that appear. */
  #watch(): void {
    if (this.#watcher !== undefined || this.#rescanTimer !== undefined) return;
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    try {
      this.#watcher = watch(this.directory, () => this.#queueScan());
      this.#watcher.on('error', () => undefined);
      this.#watcher.unref();
    } catch (error) {
      this.#onError(error as Error);
    }
    this.#rescanTimer = setInterval(() => this.#queueScan(), rescanIntervalMs);
    this.#rescanTimer.unref();
    this.#scan();
  }

  #unwatch(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#rescanTimer !== undefined) clearInterval(this.#rescanTimer);
    this.#rescanTimer = undefined;
    this.#scanned = false;
    for (const peer of this.#peers.values()) peer.socket.destroy();
    this.#peers.clear();
  }

  #queueScan(): void {
    if (this.#scanQueued) return;
    this.#scanQueued = true;
    setTimeout(() => {
      this.#scanQueued = false;
      this.#scan();
    }, 10).unref();
  }

  /** Connects to every socket of the directory not connected yet, and lets go of those removed. */
  #scan(): void {
    if (this.#closed || this.#subscribers.size === 0) return;
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch (error) {
      this.#onError(error as Error);
      names = [];
    }
    const present = new Set(
      names.filter((name) => name.endsWith('.sock')).map((name) => path.join(this.directory, name)),
    );
    for (const [socketPath, peer] of this.#peers) if (!present.has(socketPath)) peer.socket.destroy();
    for (const socketPath of present)
      if (socketPath !== this.#serverPath && !this.#peers.has(socketPath)) this.#connect(socketPath);
    for (const socketPath of this.#refused.keys()) if (!present.has(socketPath)) this.#refused.delete(socketPath);
    this.#scanned = true;
    this.#updateStates();
  }

  #connect(socketPath: string): void {
    const socket = net.connect(socketPath);
    const peer: Peer = { path: socketPath, socket, open: false, acked: new Set() };
    this.#peers.set(socketPath, peer);
    socket.on('connect', () => {
      peer.open = true;
      this.#refused.delete(socketPath);
      for (const topic of this.#subscribers.keys()) send(socket, { sub: topic });
    });
    readLines(socket, (value) => {
      const line = value as { ack?: unknown; m?: unknown };
      if (typeof line.ack === 'string') {
        peer.acked.add(line.ack);
        this.#updateStates();
        return;
      }
      const message = readLiveMessage(line.m);
      if (message !== undefined) this.#deliver(message);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (peer.open) return;
      // A socket no process listens on: its process died (remove it), or it does not listen yet: try
      // again soon, a few times, then at each scan.
      if (error.code === 'ECONNREFUSED' && !processAlive(socketPath)) unlinkQuietly(socketPath);
      else if (error.code !== 'ENOENT') {
        const attempts = (this.#refused.get(socketPath) ?? 0) + 1;
        this.#refused.set(socketPath, attempts);
        if (attempts <= maxQuickRetries) setTimeout(() => this.#queueScan(), reconnectDelayMs * attempts).unref();
        else if (attempts === maxQuickRetries + 1) this.#onError(error);
      }
    });
    socket.on('close', () => {
      const wasOpen = peer.open;
      if (this.#peers.get(socketPath) === peer) this.#peers.delete(socketPath);
      this.#updateStates();
      // A publisher that still runs is connected again (its subscribers caught up meanwhile).
      if (wasOpen && !this.#closed) setTimeout(() => this.#queueScan(), reconnectDelayMs).unref();
    });
  }

  #deliver(message: LiveMessage): void {
    for (const subscriber of this.#subscribers.get(message.topic) ?? []) {
      if (subscriber.closed) continue;
      try {
        subscriber.listener.onMessage(message);
      } catch (error) {
        this.#onError(error as Error);
      }
    }
  }

  /** Tells each subscriber that went up or down. */
  #updateStates(): void {
    for (const [topic, subscribers] of this.#subscribers) {
      // A socket that refused a connection before (a publisher not listening yet, or gone) does not
      // hold subscriptions down while it is tried again.
      const up =
        this.#scanned &&
        [...this.#peers.values()].every((peer) => (peer.open ? peer.acked.has(topic) : this.#refused.has(peer.path)));
      for (const subscriber of subscribers) {
        if (subscriber.closed || subscriber.up === up) continue;
        subscriber.up = up;
        notify(subscriber, up ? 'up' : 'down', this.#onError);
      }
    }
  }
}

function notify(subscriber: Subscriber, state: LiveState, onError: (error: Error) => void): void {
  try {
    subscriber.listener.onState?.(state);
  } catch (error) {
    onError(error as Error);
  }
}

/** Writes one JSON line. */
function send(socket: net.Socket, value: unknown): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(value)}\n`);
}

/** Calls `onLine` with each JSON line the socket reads (lines that do not parse are skipped). */
function readLines(socket: net.Socket, onLine: (value: unknown) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      onLine(value);
    }
    // A line longer than any message is not ours: the connection is dropped.
    if (buffered.length > 2 * maxLocalMessageBytes) socket.destroy();
  });
}

/** Whether the process whose id starts the socket's name still runs. */
function processAlive(socketPath: string): boolean {
  const pid = Number(path.basename(socketPath).split('-')[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already.
  }
}
