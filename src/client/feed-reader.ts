import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowClient } from '@temporalio/client';
import { QueryNotRegisteredError, WorkflowNotFoundError } from '@temporalio/client';
import { feedQuery } from '../session';
import type { FeedEvent, FeedPage } from '../session';
import { FeedGapError } from './feed-gap-error';
import { previousRunOf } from './previous-run';

type HistoryEvent = NonNullable<
  NonNullable<
    Awaited<ReturnType<WorkflowClient['workflowService']['getWorkflowExecutionHistory']>>['history']
  >['events']
>[number];

/** Longest wait between two attempts of a call that failed for want of a server or a worker, in ms. */
const maxRetryDelayMs = 5_000;

/** The calls the feed makes, retried while the server or every worker is away. */
export class FeedReader {
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
      const page = await this.page(runId, offset);
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

  /**
   * One page of run `runId`'s `feed` query from offset `from` (`maxBytes` at most), retried while
   * the server or every worker is away.
   */
  page(runId: string, from: number, maxBytes?: number): Promise<FeedPage> {
    const handle = this.#client.getHandle(this.#sessionId, runId);
    const request = maxBytes === undefined ? { from } : { from, maxBytes };
    return this.retrying(() => this.#call(() => handle.query(feedQuery, request)));
  }

  #previousRunOf(runId: string): Promise<string | undefined> {
    return this.retrying(() => this.#call(() => previousRunOf(this.#client, this.#sessionId, runId)));
  }

  #call<T>(call: () => Promise<T>): Promise<T> {
    return this.#signal ? this.#client.withAbortSignal(this.#signal, call) : call();
  }
}

/**
 * gRPC status codes of calls that may succeed later: UNKNOWN, DEADLINE_EXCEEDED,
 * RESOURCE_EXHAUSTED, ABORTED, INTERNAL, UNAVAILABLE.
 */
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
