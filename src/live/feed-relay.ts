import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectionLike } from '@temporalio/client';
import type { CancelledCalls, FeedEvent } from '../session';
import type { LiveChannel } from './live-channel';
import { cancelTopic, sessionTopic } from './live-message';
import type { LiveCancel, LiveMessage } from './live-message';

/** What the relay needs of the worker's connection: the workflow service, and a way to cut a call short. */
export type RelayConnection = Pick<ConnectionLike, 'workflowService' | 'withAbortSignal'>;

/** The workflow task a sink call came from, as its `WorkflowInfo` says. */
export interface SinkOrigin {
  workflowId: string;
  runId: string;
  namespace: string;
  /** The id of the task's `WorkflowTaskStarted` event. */
  historyLength: number;
}

/** Options of {@link FeedRelay}. */
export interface FeedRelayOptions {
  channel: LiveChannel;
  connection: RelayConnection;
  /** Cancellations this worker's own workflow tasks made, applied here at once (they are published too). */
  onCancel?: (cancel: LiveCancel) => void;
  /** Told when the server cannot be read (the relay tries again); defaults to none. */
  onError?: (error: Error) => void;
}

/** What a workflow task handed over, waiting for the task to be durable. */
type Pending = { task: number; event: FeedEvent } | { task: number; cancelled: CancelledCalls };

/** One workflow run with something pending, or a place in its history kept for the next. */
interface RunState {
  readonly origin: Omit<SinkOrigin, 'historyLength'>;
  readonly pending: Pending[];
  /** Where its history was read up to. */
  token: Uint8Array | null;
  reading: boolean;
}

/** Runs whose place in the history is kept (a run with nothing pending is let go beyond it). */
const maxKeptRuns = 10_000;
/** Longest pause between two attempts to read a history the server does not answer for, in milliseconds. */
const maxRetryDelayMs = 5_000;

/**
 * The worker's side of the live channel: what the session workflow hands its sinks (feed events, cancelled
 * calls) is published once the workflow task that made it is durable. A sink runs as the task
 * completes, before the server has its completion, and a task that then fails (the worker dies,
 * the server refuses the completion) runs again, perhaps with other input: its events are not the
 * durable ones. So the relay follows each run's history (`GetWorkflowExecutionHistory` with
 * `waitNewEvent`, one long poll per run with something pending, from where it last read) and
 * publishes a task's items when its `WorkflowTaskCompleted` arrives, and drops them when the task
 * failed or timed out. Feed events go to the session's topic in messages that fit the channel
 * (a `more` for what does not); cancellations to the namespace's cancellation topic.
 */
export class FeedRelay {
  readonly #channel: LiveChannel;
  readonly #connection: RelayConnection;
  readonly #onCancel: (cancel: LiveCancel) => void;
  readonly #onError: (error: Error) => void;
  readonly #runs = new Map<string, RunState>();
  readonly #stop = new AbortController();

  constructor({ channel, connection, onCancel = () => undefined, onError = () => undefined }: FeedRelayOptions) {
    this.#channel = channel;
    this.#connection = connection;
    this.#onCancel = onCancel;
    this.#onError = onError;
  }

  /** A feed event a workflow task appended. */
  feedEvent(origin: SinkOrigin, event: FeedEvent): void {
    const run = this.#run(origin);
    // A task that runs again appends from the same offset: what its earlier attempt appended is not durable.
    while (run.pending.length > 0) {
      const last = run.pending.at(-1);
      if (last === undefined || !('event' in last) || last.event.offset < event.offset) break;
      run.pending.pop();
    }
    run.pending.push({ task: origin.historyLength, event });
    this.#read(run);
  }

  /** Calls a workflow task cancelled. */
  callsCancelled(origin: SinkOrigin, cancelled: CancelledCalls): void {
    const run = this.#run(origin);
    run.pending.push({ task: origin.historyLength, cancelled });
    this.#read(run);
  }

  /** Stops following histories; what is pending is not published. */
  close(): void {
    this.#stop.abort();
    this.#runs.clear();
  }

  #run({ workflowId, runId, namespace }: SinkOrigin): RunState {
    let run = this.#runs.get(runId);
    if (run === undefined) {
      run = { origin: { workflowId, runId, namespace }, pending: [], token: null, reading: false };
      this.#forgetIdleRuns();
    } else this.#runs.delete(runId);
    // Most recently used last.
    this.#runs.set(runId, run);
    return run;
  }

  #forgetIdleRuns(): void {
    for (const [runId, run] of this.#runs) {
      if (this.#runs.size < maxKeptRuns) return;
      if (!run.reading && run.pending.length === 0) this.#runs.delete(runId);
    }
  }

  /** Follows the run's history while it has items pending (one reader per run). */
  #read(run: RunState): void {
    if (run.reading || this.#stop.signal.aborted) return;
    run.reading = true;
    void this.#follow(run).finally(() => {
      run.reading = false;
      // An item that arrived as the reader was leaving.
      if (run.pending.length > 0 && this.#runs.get(run.origin.runId) === run) this.#read(run);
    });
  }

  async #follow(run: RunState): Promise<void> {
    const { workflowId, runId, namespace } = run.origin;
    for (let failures = 0; run.pending.length > 0 && !this.#stop.signal.aborted;) {
      let response: Awaited<ReturnType<RelayConnection['workflowService']['getWorkflowExecutionHistory']>>;
      try {
        response = await this.#connection.withAbortSignal(this.#stop.signal, () =>
          this.#connection.workflowService.getWorkflowExecutionHistory({
            namespace,
            execution: { workflowId, runId },
            nextPageToken: run.token,
            waitNewEvent: true,
            skipArchival: true,
          }),
        );
        failures = 0;
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        // A run the server no longer knows (past retention): nothing of it will be confirmed.
        if ((error as { code?: unknown }).code === 5) return this.#forget(run);
        failures += 1;
        if (failures === 1) this.#onError(asError(error));
        await sleep(Math.min(100 * 2 ** failures, maxRetryDelayMs), undefined, { signal: this.#stop.signal }).catch(
          () => undefined,
        );
        continue;
      }
      for (const event of response.history?.events ?? []) {
        const completed = event.workflowTaskCompletedEventAttributes?.startedEventId;
        if (completed != null) this.#confirm(run, Number(completed));
        const failed =
          event.workflowTaskFailedEventAttributes?.startedEventId ??
          event.workflowTaskTimedOutEventAttributes?.startedEventId;
        if (failed != null) this.#discard(run, Number(failed));
      }
      const token = response.nextPageToken;
      // An empty token: the run is closed and its whole history read. What is still pending never completed.
      if (token == null || token.length === 0) return this.#forget(run);
      run.token = token;
    }
  }

  #forget(run: RunState): void {
    run.pending.length = 0;
    if (this.#runs.get(run.origin.runId) === run) this.#runs.delete(run.origin.runId);
  }

  /** The task that started at event `task` completed: its items are durable; those of earlier tasks never completed. */
  #confirm(run: RunState, task: number): void {
    let count = 0;
    while (count < run.pending.length && (run.pending[count]?.task ?? Infinity) <= task) count += 1;
    const taken = run.pending.splice(0, count).filter((item) => item.task === task);
    if (taken.length === 0) return;
    const { workflowId, namespace } = run.origin;
    const events = taken.flatMap((item) => ('event' in item ? [item.event] : []));
    if (events.length > 0) this.#publishEvents(sessionTopic(namespace, workflowId), events);
    for (const item of taken) {
      if (!('cancelled' in item)) continue;
      const cancel: LiveCancel = {
        kind: 'cancel',
        topic: cancelTopic(namespace),
        session: workflowId,
        ...item.cancelled,
      };
      this.#onCancel(cancel);
      this.#channel.publish(cancel);
    }
  }

  #discard(run: RunState, task: number): void {
    for (let index = run.pending.length - 1; index >= 0; index--)
      if (run.pending[index]?.task === task) run.pending.splice(index, 1);
  }

  /** Events in messages that fit the channel; from an event that fits in none, a `more` to read the rest. */
  #publishEvents(topic: string, events: FeedEvent[]): void {
    const limit = this.#channel.maxMessageBytes;
    const envelope = byteLength({ kind: 'events', topic, events: [] });
    let batch: FeedEvent[] = [];
    let bytes = envelope;
    for (const event of events) {
      const size = byteLength(event) + 1;
      if (envelope + size > limit) {
        if (batch.length > 0) this.#channel.publish({ kind: 'events', topic, events: batch });
        const end = (events.at(-1)?.offset ?? event.offset) + 1;
        this.#channel.publish({ kind: 'more', topic, end } satisfies LiveMessage);
        return;
      }
      if (bytes + size > limit) {
        this.#channel.publish({ kind: 'events', topic, events: batch });
        batch = [];
        bytes = envelope;
      }
      batch.push(event);
      bytes += size;
    }
    if (batch.length > 0) this.#channel.publish({ kind: 'events', topic, events: batch });
  }
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function asError(error: unknown): Error {
  return new Error(
    `[toolrail] the live channel cannot read a session's history (it tries again): ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
