import type { LiveCancel } from './live-message';

/** One running call as {@link LiveCalls} tracks it. */
export interface TrackedCall {
  /** Aborted when the session cancels the call through the live channel. */
  readonly signal: AbortSignal;
  /** The call is over: stop tracking it. */
  release(): void;
}

/** What a call is, to a cancellation: a tool call by its id, or the session's model call. */
export type CallKind = { callId: string } | { model: true };

interface Entry {
  readonly kind: CallKind;
  readonly controller: AbortController;
}

/**
 * The calls this worker runs now, by session, so that a cancellation from the live channel (the
 * session interrupted, or a sibling failed) aborts them at once, without waiting for Temporal's
 * cancellation, which reaches an activity only in the answer to a heartbeat. The abort reason is
 * a {@link LiveCancelledError}.
 */
export class LiveCalls {
  readonly #sessions = new Map<string, Set<Entry>>();

  /** Tracks a call of `sessionId` until `release`. */
  track(sessionId: string, kind: CallKind): TrackedCall {
    const entry: Entry = { kind, controller: new AbortController() };
    let entries = this.#sessions.get(sessionId);
    if (entries === undefined) {
      entries = new Set();
      this.#sessions.set(sessionId, entries);
    }
    entries.add(entry);
    return {
      signal: entry.controller.signal,
      release: () => {
        const current = this.#sessions.get(sessionId);
        current?.delete(entry);
        if (current?.size === 0) this.#sessions.delete(sessionId);
      },
    };
  }

  /** Aborts the calls a cancellation names that run here. */
  cancel({ session, callIds, model }: Pick<LiveCancel, 'session' | 'callIds' | 'model'>): void {
    const named = new Set(callIds);
    for (const entry of this.#sessions.get(session) ?? []) {
      const hit = 'model' in entry.kind ? model : named.has(entry.kind.callId);
      if (hit && !entry.controller.signal.aborted) entry.controller.abort(new LiveCancelledError());
    }
  }

  /** How many calls run now. */
  get size(): number {
    let count = 0;
    for (const entries of this.#sessions.values()) count += entries.size;
    return count;
  }
}

/** The reason a call's live signal aborts: the session cancelled it (through the live channel). */
export class LiveCancelledError extends Error {
  constructor() {
    super('cancelled by the session');
    this.name = 'LiveCancelledError';
  }
}
