import { log, setHandler } from '@temporalio/workflow';
import { utf8ByteLength } from '../src/text';
import {
  feedEventBodyOf,
  feedQuery,
  maxCarriedFeedBytes,
  maxFeedPageBytes,
  maxModelTextBytes,
  modelTextSignal,
  undecodableEncoding,
} from '../src/session';
import type {
  CarriedFeed,
  FeedEvent,
  FeedEventBody,
  FeedPage,
  FeedRequest,
  ModelTextInput,
  SessionEvent,
} from '../src/session';
import type { SessionState } from './session-state';
import type { SessionView } from './session-view';
import { workflowNow } from './workflow-now';

/**
 * The live feed: a view of the session's events, numbered for the whole session. The workflow run
 * holds its newest events (a window of at most `limits.feedWindowBytes`) for the `feed` query, and
 * continue-as-new carries the offset and the newest of them on. Subscribers read it with queries,
 * which never touch the history (see `src/client/session-feed.ts`).
 */
export interface FeedView {
  readonly onEvent: SessionView;
  /** The events from `request.from` on (see {@link FeedPage}); throws for an offset past the end. */
  read(request: FeedRequest): FeedPage;
  /** What continue-as-new carries. */
  carried(): CarriedFeed;
  /** The offset of the newest event; -1 before the first. */
  last(): number;
}

/**
 * Most UTF-8 bytes of JSON one `results_appended` event holds: more results go on in the next one,
 * so every event fits a feed page (and a query's answer stays under the 256 KiB over which a worker
 * with External Storage would hand a client a claim to read, not the page).
 */
export const maxResultsEventBytes = 65_536;

/**
 * The feed view, going on from what continue-as-new carried, holding at most `windowBytes` of events
 * (each appended one also goes to `onAppend`: the worker's live channel). Many results are appended
 * as several `results_appended` events of at most {@link maxResultsEventBytes} each.
 */
export function feedView(
  carried: CarriedFeed | undefined,
  { windowBytes, onAppend }: { windowBytes: number; onAppend?: (event: FeedEvent) => void },
): FeedView {
  const window: { event: FeedEvent; bytes: number }[] = [];
  let heldBytes = 0;
  let next = carried?.next ?? 0;
  // The offset of the event that queued each queued message, in queue order (as applyEvent keeps the queue).
  const queued: (number | null)[] = [...(carried?.queued ?? [])];
  // The offset of the run in progress's `run_started`.
  let runStart = carried?.runStart;
  // The model call in progress, and the newest batch of its text the feed showed.
  let modelCall: { turn: number; attempt: number; seq: number } | undefined;

  const keep = (event: FeedEvent): void => {
    const bytes = sizeOf(event);
    window.push({ event, bytes });
    heldBytes += bytes;
    while (heldBytes > windowBytes && window.length > 1) heldBytes -= window.shift()?.bytes ?? 0;
  };
  for (const event of carried?.window ?? []) keep(event);
  const append = (body: FeedEventBody, state: SessionState): number => {
    const offset = next;
    next += 1;
    const event: FeedEvent = { offset, at: workflowNow(), run: state.counters.runs, turn: state.turnIndex, ...body };
    keep(event);
    onAppend?.(event);
    return offset;
  };

  const onEvent = (event: SessionEvent, state: SessionState): void => {
    switch (event.type) {
      case 'message_received':
        queued.push(append(feedEventBodyOf(event) as FeedEventBody, state));
        return;
      case 'interrupt_received': {
        const offset = append(feedEventBodyOf(event) as FeedEventBody, state);
        if (event.message !== undefined) queued.unshift(offset);
        return;
      }
      case 'run_started': {
        const messageOffset = queued.shift() ?? null;
        const body = feedEventBodyOf(event) as Extract<FeedEventBody, { type: 'run_started' }>;
        runStart = append(messageOffset === null ? body : { ...body, messageOffset }, state);
        return;
      }
      case 'run_ended': {
        // With the tokens the run's model calls used (the state's fold has counted them).
        const body = feedEventBodyOf(event) as Extract<FeedEventBody, { type: 'run_ended' }>;
        append({ ...body, usage: { ...state.usage.run } }, state);
        runStart = undefined;
        return;
      }
      case 'results_appended': {
        const { results } = feedEventBodyOf(event) as Extract<FeedEventBody, { type: 'results_appended' }>;
        for (const part of inParts(results, maxResultsEventBytes))
          append({ type: 'results_appended', results: part }, state);
        return;
      }
      case 'model_call_started':
        modelCall = { turn: state.turnIndex, attempt: 0, seq: 0 };
        break;
      case 'model_text': {
        // Only the call in progress, each batch once and in order; a new attempt starts its text again.
        const { turn, attempt, seq, text } = event;
        if (modelCall === undefined || turn !== modelCall.turn) return;
        if (attempt < modelCall.attempt || (attempt === modelCall.attempt && seq <= modelCall.seq)) return;
        modelCall = { turn, attempt, seq };
        append({ type: 'text_delta', attempt, text }, state);
        return;
      }
      case 'model_responded':
      case 'model_call_failed':
        modelCall = undefined;
        break;
      default:
        break;
    }
    const body = feedEventBodyOf(event);
    if (body !== undefined) append(body, state);
  };

  return {
    onEvent,
    last: () => next - 1,
    read({ from, maxBytes }) {
      if (from > next) throw new RangeError(`offset ${from} is past the end of the feed (the next event gets ${next})`);
      const oldest = window[0]?.event.offset ?? next;
      const run = runStart === undefined ? {} : { runStart };
      if (from < oldest) return { events: [], next: from, oldest, end: next, ...run };
      const budget = Math.min(maxBytes ?? maxFeedPageBytes, maxFeedPageBytes);
      const events: FeedEvent[] = [];
      let bytes = 0;
      for (let index = from - oldest; index < window.length; index++) {
        const kept = window[index];
        if (kept === undefined || (events.length > 0 && bytes + kept.bytes > budget)) break;
        events.push(kept.event);
        bytes += kept.bytes;
      }
      return { events, next: from + events.length, oldest, end: next, ...run };
    },
    carried() {
      const newest: FeedEvent[] = [];
      let bytes = 0;
      for (let index = window.length - 1; index >= 0; index--) {
        const kept = window[index];
        if (kept === undefined || bytes + kept.bytes > maxCarriedFeedBytes) break;
        newest.unshift(kept.event);
        bytes += kept.bytes;
      }
      return { next, window: newest, queued: [...queued], ...(runStart === undefined ? {} : { runStart }) };
    },
  };
}

/**
 * The feed's query and the text deltas' signal. The query refuses a malformed request; a malformed
 * `modelText` signal (it comes from the worker, not a user) is dropped with a worker log line.
 */
export function installFeedHandlers(session: { readonly feed: FeedView; emit(event: SessionEvent): void }): void {
  setHandler(feedQuery, (request) => session.feed.read(checkFeedRequest(request)), {
    description:
      'The live feed: { from, maxBytes? } → { events, next, oldest, end }. Offsets count the whole session, across continue-as-new.',
  });
  setHandler(
    modelTextSignal,
    (input) => {
      const problem = modelTextProblem(input);
      if (problem !== undefined) return log.warn(`[toolrail] dropped a modelText signal: ${problem}`);
      const { turn, attempt, seq, text } = input;
      session.emit({ type: 'model_text', turn, attempt, seq, text });
    },
    { description: 'From the worker: text a streaming model call wrote so far (a batch of deltas).' },
  );
}

function checkFeedRequest(request: unknown): FeedRequest {
  const encoding = undecodableEncoding(request);
  if (encoding !== undefined) throw new TypeError(`the feed request could not be decoded (encoding ${encoding})`);
  const { from, maxBytes } = (request ?? {}) as { from?: unknown; maxBytes?: unknown };
  if (!isCount(from)) throw new TypeError('feed needs { from: a non-negative integer offset, maxBytes? }');
  if (maxBytes !== undefined && !(isCount(maxBytes) && maxBytes > 0))
    throw new TypeError('feed: maxBytes must be a positive integer');
  return { from, ...(maxBytes === undefined ? {} : { maxBytes }) };
}

function modelTextProblem(input: unknown): string | undefined {
  if (undecodableEncoding(input) !== undefined) return 'its payload could not be decoded';
  const { turn, attempt, seq, text } = (input ?? {}) as Partial<Record<keyof ModelTextInput, unknown>>;
  if (!isCount(turn) || !isCount(attempt) || !isCount(seq) || typeof text !== 'string')
    return 'expected { turn, attempt, seq: non-negative integers, text: string }';
  if (utf8ByteLength(text) > maxModelTextBytes) return `its text is over ${maxModelTextBytes} bytes`;
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function sizeOf(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value));
}

/** `items` in order, in parts of at most `maxBytes` of JSON each (an item larger than that alone). */
function inParts<T>(items: readonly T[], maxBytes: number): T[][] {
  // A turn's usual single result is one part: it is not measured twice (the feed measures its event).
  if (items.length <= 1) return [[...items]];
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const itemBytes = sizeOf(item) + 1;
    if (part.length > 0 && bytes + itemBytes > maxBytes) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += itemBytes;
  }
  parts.push(part);
  return parts;
}
