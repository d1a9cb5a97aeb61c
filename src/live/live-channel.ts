import type { LiveMessage } from './live-message';

/** Whether a subscription gets every message: `up`, or `down` (messages may be missed until it is up again). */
export type LiveState = 'up' | 'down';

/** What a subscriber hears on one topic. */
export interface LiveListener {
  /** A message on the topic, in the order its publisher published it. */
  onMessage(message: LiveMessage): void;
  /**
   * The subscription went `up` (every message published from now on reaches it) or `down` (the
   * channel lost its connection, or a new publisher appeared that it does not hear yet). After a
   * `down`, a subscriber reads what it missed from the durable feed once it is `up` again.
   */
  onState?(state: LiveState): void;
}

/** One subscription to a topic. */
export interface LiveSubscription {
  /** Whether every message published now reaches it. */
  readonly up: boolean;
  /** Ends the subscription (idempotent). */
  close(): void;
}

/**
 * A fast path beside a session's durable feed: workers publish feed events once they are durable,
 * text as a streaming model writes it, and cancellations; watchers (and workers, for
 * cancellations) subscribe. Messages are ephemeral: nothing is kept for a subscriber that was not
 * up, which is why watchers read the durable feed to catch up. `openLiveChannel` opens one:
 * {@link LocalLiveChannel} for the processes of one machine, {@link PostgresLiveChannel} across
 * machines.
 */
export interface LiveChannel {
  /** Where messages travel, for logs (never a password). */
  readonly description: string;
  /** Largest message the channel carries, in UTF-8 bytes of its JSON. */
  readonly maxMessageBytes: number;
  /**
   * Sends a message to the topic's subscribers (of every process, this one's included). Never
   * throws and never waits: a message the channel cannot send now is dropped (see
   * {@link LiveChannel}); a feed message so dropped is followed by a `more` once it can send again.
   */
  publish(message: LiveMessage): void;
  /**
   * Gets ready to publish, for a process that will (a worker): the local channel serves its socket
   * now, so that subscribers are connected before its first message.
   */
  prepare(): Promise<void>;
  /** Subscribes to a topic; `listener.onState('up')` says when every message reaches it. */
  subscribe(topic: string, listener: LiveListener): LiveSubscription;
  /** Closes every connection and subscription. */
  close(): Promise<void>;
}
