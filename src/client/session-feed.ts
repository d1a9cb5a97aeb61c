import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowClient } from '@temporalio/client';
import { QueryNotRegisteredError, WorkflowNotFoundError } from '@temporalio/client';
import { ToolrailError } from '../kernel';
import { feedQuery } from '../session';
import type { FeedEvent, FeedPage } from '../session';
import { previousRunOf } from './previous-run';

/** Options of `SessionHandle.events`. */
export interface SessionEventsOptions {
  /** The first offset to deliver. Defaults to 0, the session's first event. */
  from?: number;
  /** Aborting it ends the iteration (the iterator returns). */
  signal?: AbortSignal;
}

/**
 * A subscriber asked for events no run of the session holds any more (each run keeps its newest
 * events only): `resumeFrom` is the oldest offset still held. Subscribe again from there.
 */
export class FeedGapError extends ToolrailError {
  static override readonly brand: symbol = Symbol.for('toolrail.error.FEED_GAP');
  /** The offset asked for. */
  readonly requested: number;
  /** The oldest offset the session still holds. */
  readonly resumeFrom: number;

  constructor(requested: number, resumeFrom: number) {
    super({
      code: 'FEED_GAP',
      message: `the session's feed no longer holds offset ${requested}: its oldest event is ${resumeFrom}; subscribe from ${resumeFrom}`,
    });
    this.requested = requested;
    this.resumeFrom = resumeFrom;
  }
}

type HistoryEvent = NonNullable<
  NonNullable<
    Awaited<ReturnType<WorkflowClient['workflowService']['getWorkflowExecutionHistory']>>['history']
  >['events']
>[number];

/** Longest wait between two attempts of a call that failed for want of a server or a worker, in ms. */
const maxRetryDelayMs = 5_000;

/**
 * A session's live feed, from offset `from` on, as it happens: every event once, in order, until
 * the session ends (or `signal` aborts).
 *
 * How it works, on Temporal's own primitives and without writing to the session's history: the
 * client long-polls the current workflow run's history (`GetWorkflowExecutionHistory` with
 * `waitNewEvent`), and each time a workflow task completes it reads the new events with the
 * `feed` query. A query answers from the state of completed workflow tasks only, and the events a
 * worker rebuilds by replay after a crash are the same, at the same offsets, so nothing is missed
 * or doubled. At a continue-as-new it follows the new run, whose window starts with the newest
 * events the old run carried; events a run no longer holds are read from the closed runs of the
 * chain, and if none holds them any more the iterator throws a {@link FeedGapError}.
 */
export async function* followSessionFeed(
  client: WorkflowClient,
  sessionId: string,
  { from = 0, signal }: SessionEventsOptions = {},
): AsyncGenerator<FeedEvent, void, undefined> {
  if (!Number.isSafeInteger(from) || from < 0) throw new RangeError(`from must be a non-negative integer, got ${from}`);
  const feed = new FeedReader(client, sessionId, signal);
  let offset = from;
  try {
    let runId: string | undefined = (await feed.retrying(() => client.getHandle(sessionId).describe())).runId;
    while (runId !== undefined && !feed.aborted) {
      const history = feed.history(runId);
      let previousRunId: string | undefined;
      let nextRunId: string | undefined;
      for (;;) {
        const batch = await history.next();
        if (batch === undefined) return; // aborted
        for (const event of batch.events) {
          previousRunId ||= event.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
          nextRunId ||= event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId || undefined;
        }
        // The feed changes only in workflow tasks: read it once one has completed (then it is durable).
        // A run that continued as new is not read: the next run holds its newest events (and reads it if need be).
        const changed = batch.events.some((event) => event.workflowTaskCompletedEventAttributes != null);
        if (nextRunId === undefined && (changed || batch.closed)) {
          for await (const event of feed.drain(runId, offset, previousRunId)) {
            if (feed.aborted) return;
            offset = event.offset + 1;
            yield event;
          }
        }
        if (batch.closed) break;
      }
      // A continued run goes on in the next one (which holds the newest events again); any other end ends the feed.
      runId = nextRunId;
    }
  } catch (error) {
    // An abort ends the iteration quietly, whatever call it cut short.
    if (!feed.aborted) throw error;
  }
}

/** The calls the feed makes, retried while the server or every worker is away. */
class FeedReader {
  readonly #client: WorkflowClient;
  readonly #sessionId: string;
  readonly #signal: AbortSignal | undefined;

  constructor(client: WorkflowClient, sessionId: string, signal: AbortSignal | undefined) {
    this.#client = client;
    this.#sessionId = sessionId;
    this.#signal = signal;
  }

  get aborted(): boolean {
    return this.#signal?.aborted ?? false;
  }

  /** The events from `from` on that run `runId` holds, reading older ones from the runs before it. */
  async *drain(runId: string, from: number, previousRunId: string | undefined): AsyncGenerator<FeedEvent> {
    let offset = from;
    for (;;) {
      const page = await this.#page(runId, offset);
      if (offset < page.oldest) {
        // This run no longer holds them: the runs before it do, or no run does.
        const previous = previousRunId ?? (await this.#previousRunOf(runId));
        if (previous === undefined) throw new FeedGapError(offset, page.oldest);
        for await (const event of this.drain(previous, offset, undefined)) {
          if (event.offset >= page.oldest) break;
          offset = event.offset + 1;
          yield event;
        }
        if (offset < page.oldest) throw new FeedGapError(offset, page.oldest);
        continue;
      }
      for (const event of page.events) yield event;
      offset = page.next;
      if (page.next >= page.end || page.events.length === 0) return;
    }
  }

  /** A reader of one run's history that waits for new events. */
  history(runId: string): { next(): Promise<{ events: HistoryEvent[]; closed: boolean } | undefined> } {
    let nextPageToken: Uint8Array | null = null;
    return {
      next: async () => {
        for (;;) {
          if (this.aborted) return undefined;
          const response = await this.retrying(() =>
            this.#call(() =>
              this.#client.workflowService.getWorkflowExecutionHistory({
                namespace: this.#client.options.namespace,
                execution: { workflowId: this.#sessionId, runId },
                nextPageToken,
                waitNewEvent: true,
                skipArchival: true,
              }),
            ),
          ).catch((error: unknown) => {
            if (this.aborted) return undefined;
            throw error;
          });
          if (response === undefined) return undefined;
          const events = response.history?.events ?? [];
          nextPageToken = response.nextPageToken ?? null;
          // An empty token: the run is closed and every event was read.
          const closed = nextPageToken === null || nextPageToken.length === 0;
          if (events.length > 0 || closed) return { events, closed };
        }
      },
    };
  }

  /** Runs `call`, again after a growing pause while it fails for want of a server or a worker. */
  async retrying<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (this.aborted || !isTransient(error)) throw error;
        await sleep(Math.min(100 * 2 ** attempt, maxRetryDelayMs), undefined, { signal: this.#signal }).catch(
          () => undefined,
        );
      }
    }
  }

  #page(runId: string, from: number): Promise<FeedPage> {
    const handle = this.#client.getHandle(this.#sessionId, runId);
    return this.retrying(() => this.#call(() => handle.query(feedQuery, { from })));
  }

  #previousRunOf(runId: string): Promise<string | undefined> {
    return this.retrying(() => this.#call(() => previousRunOf(this.#client, this.#sessionId, runId)));
  }

  #call<T>(call: () => Promise<T>): Promise<T> {
    return this.#signal ? this.#client.withAbortSignal(this.#signal, call) : call();
  }
}

/** gRPC status codes of calls that may succeed later: UNKNOWN, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, INTERNAL, UNAVAILABLE. */
const transientCodes = new Set([2, 4, 8, 10, 13, 14]);

/** Whether a failed call may succeed later: the server or every worker was away, not a bad request. */
function isTransient(error: unknown): boolean {
  if (error instanceof QueryNotRegisteredError || error instanceof WorkflowNotFoundError) return false;
  for (let cause: unknown = error; typeof cause === 'object' && cause !== null; cause = (cause as Error).cause) {
    const { code } = cause as { code?: unknown };
    if (typeof code === 'number') return transientCodes.has(code);
  }
  return false;
}
