import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { FeedEvent } from './feed-events';

/** What the `feed` query asks: the events from offset `from` on, at most `maxBytes` of them. */
export interface FeedRequest {
  /** The first offset wanted. */
  from: number;
  /**
   * Most bytes (UTF-8 JSON) of events in the answer; at least one event is returned. Defaults to
   * and is capped at {@link maxFeedPageBytes}.
   */
  maxBytes?: number;
}

/**
 * The `feed` query's answer: events this workflow run holds from the offset asked for. `from` is
 * before `oldest` when this run no longer holds it (read it from an earlier run of the chain), and
 * `next` equals `end` once the caller is up to date.
 */
export interface FeedPage {
  events: FeedEvent[];
  /** The offset to ask for next. */
  next: number;
  /** The oldest offset this run holds (its window); `end` when it holds none. */
  oldest: number;
  /** The offset the session's next event will get. */
  end: number;
  /** The offset of the `run_started` event of the run in progress; absent between runs. */
  runStart?: number;
}

/**
 * Text a streaming model call wrote, from the worker's model activity to the session: one batch of
 * deltas. `seq` counts the batches of one attempt from 1; a batch is sent again unchanged when its
 * delivery is in doubt, and the session keeps each `(turn, attempt, seq)` once.
 */
export interface ModelTextInput {
  /** The model turn (0-based in the session). */
  turn: number;
  /** The model activity's attempt (1-based): a retried call starts its text again. */
  attempt: number;
  seq: number;
  text: string;
}

/** The session's live feed, page by page (see {@link FeedPage}). Changes nothing. */
export const feedQuery = defineQuery<FeedPage, [FeedRequest]>('feed');

/** Text deltas of a streaming model call (from the worker; see {@link ModelTextInput}). */
export const modelTextSignal = defineSignal<[ModelTextInput]>('modelText');

/** Largest page the `feed` query returns, in UTF-8 bytes of JSON. */
export const maxFeedPageBytes = 131_072;

/**
 * Default of `limits.feedWindowBytes`: feed events a workflow run holds for the `feed` query, in
 * UTF-8 bytes of JSON.
 */
export const defaultFeedWindowBytes = 524_288;

/**
 * Most feed events continue-as-new carries into the next run, in UTF-8 bytes of JSON (the newest
 * ones; older ones are read from the closed runs). Written twice: in the continue-as-new event and
 * the next run's start.
 */
export const maxCarriedFeedBytes = 4_096;

/** Largest text one `modelText` signal may carry, in UTF-8 bytes; larger ones are dropped. */
export const maxModelTextBytes = 65_536;

/** What continue-as-new carries of the feed: the next offset, the newest events, and the queue's message offsets. */
export interface CarriedFeed {
  /** The offset the next event gets. */
  next: number;
  /** The newest events, oldest first (at most {@link maxCarriedFeedBytes}). */
  window: FeedEvent[];
  /** The offset of the event that queued each queued message, in queue order (`null`: unknown). */
  queued: (number | null)[];
  /** The offset of the `run_started` event of the run in progress, when one is. */
  runStart?: number;
}
