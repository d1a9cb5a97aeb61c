import { ApplicationFailure } from '@temporalio/workflow';
import type { CancellationScope } from '@temporalio/workflow';
import { heldCatalog } from '../src/dispatch';
import { segmentEntries } from '../src/session';
import type { MessageRef, SessionCatalog, SessionEvent } from '../src/session';
import type { ConversationMessage } from '../src/models';
import { applyEvent } from './session-state';
import type { SessionState } from './session-state';
import type { SessionFeed } from './session-feed';
import type { SessionSpans } from './session-spans';
import type { SessionView, TranscriptView } from './session-views';
import { contentWrites, storeOf } from './wait-for-store';

// Every content-store operation of the session waits for the store while it fails (`wait-for-store.ts`).
export { storeOf, withStore } from './wait-for-store';
// Which changes of the workflow this run has (`patches.ts`).
export { catalogOnChange } from './patches';
export { publishCancelledCalls } from './live-sinks';
// The turn's activities' inputs and results, as history carries them (`turn-activities.ts`).
export { executeToolInput, modelCallInput, unpackExecutedCall, unpackModelCallResult } from './turn-activities';
export type { ModelCallResult } from './turn-activities';

/** What runs now and can be cancelled: the model call, and each running tool call. Runtime handles, not state. */
export interface SessionScopes {
  model: CancellationScope | undefined;
  /** By call id; `interrupted` is set when the user's interrupt (not a failing sibling) cancelled the call. */
  readonly calls: Map<string, { scope: CancellationScope; interrupted: boolean }>;
}

/** One session as the workflow code holds it. */
export interface Session {
  /** Read it anywhere; it changes only through {@link Session.emit}. */
  readonly state: SessionState;
  /** Applies `event` to the state (`applyEvent`), then shows it to every view. */
  emit(event: SessionEvent): void;
  readonly scopes: SessionScopes;
  readonly transcript: TranscriptView;
  /** The live feed (`session-feed.ts`). */
  readonly feed: SessionFeed;
  /** The span view, when tracing is on. */
  readonly spans: SessionSpans | undefined;
}

/** A session over `state`, whose events reach the transcript, the feed, `views` (in order) and the spans. */
export function createSession(
  state: SessionState,
  { transcript, feed }: { transcript: TranscriptView; feed: SessionFeed },
  views: readonly SessionView[],
  spans: SessionSpans | undefined,
): Session {
  const all = [transcript.onEvent, feed.onEvent, ...views, ...(spans ? [spans.onEvent] : [])];
  return {
    state,
    transcript,
    feed,
    spans,
    scopes: { model: undefined, calls: new Map() },
    emit(event) {
      applyEvent(state, event);
      for (const view of all) view(event, state);
    },
  };
}

/** An update refused by its validator: non-retryable (the same payload fails again), and never written to history. */
export function refusedUpdate(update: string, problem: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${update} refused: ${problem}`, 'InvalidUpdate');
}

/** `validate`, whose refusals (any error it throws) become {@link refusedUpdate}s. */
export function refusing<I>(update: string, validate: (input: I) => void): (input: I) => void {
  return (input) => {
    try {
      validate(input);
    } catch (error) {
      throw refusedUpdate(update, error instanceof Error ? error.message : String(error));
    }
  };
}

/** Runs `schedule` (which schedules an activity) under the span of `key` when tracing is on. */
export function traced<T>(session: Session, key: string, schedule: () => T): T {
  return session.spans ? session.spans.within(key, schedule) : schedule();
}

// The workflow's side of the content store: it writes messages and seals the conversation log's
// tail through local activities, whose inputs never enter the history (only the references they
// return); while the store fails, the session waits for it.

/** Writes messages to the content store and returns their references, in order. */
export function storeMessages(session: Session, messages: ConversationMessage[]): Promise<MessageRef[]> {
  const { state } = session;
  return contentWrites(session).storeMessages({ sessionId: state.sessionId, ...storeOf(state), messages });
}

/**
 * Once the log's inline tail is full, seals it into a segment in the content store, so what the
 * workflow holds stays bounded. Returns `undefined` (no promise) when there is nothing to seal: the
 * caller awaits only real work (every promise in workflow code costs a stack capture).
 */
export function sealLogIfFull(session: Session): Promise<void> | undefined {
  if (session.state.log.tail.length < segmentEntries) return undefined;
  return sealLog(session);
}

async function sealLog(session: Session): Promise<void> {
  const { state } = session;
  const { sessionId, log } = state;
  const sealed = await contentWrites(session).sealLog({ sessionId, ...storeOf(state), log });
  session.emit({ type: 'log_sealed', log: sealed });
}

/** Stores the queued messages that are still inline text, so continue-as-new carries references only. */
export async function storeQueuedMessages(session: Session): Promise<void> {
  for (;;) {
    const inline = session.state.queuedMessages.filter((queued): queued is string => typeof queued === 'string');
    if (inline.length === 0) return;
    const refs = await storeMessages(
      session,
      inline.map((text) => ({ role: 'user', text })),
    );
    // Messages that arrived while these were stored stay inline for the next round.
    session.emit({ type: 'messages_stored', stored: storedAs(inline, refs) });
  }
}

/**
 * The session's catalog is now `catalog` (the session holds its names, `heldCatalog`); names in its
 * `tools` the worker lacks are said when they change.
 */
export function changeCatalog(session: Session, catalog: SessionCatalog): void {
  const before = session.state.catalog.unknownTools ?? [];
  session.emit({ type: 'catalog_changed', catalog: heldCatalog(catalog) });
  const unknownTools = catalog.unknownTools ?? [];
  // A name in `tools` the worker lacks is said once, when the set of such names changes (it may come with a later worker).
  if (
    unknownTools.length > 0 &&
    unknownTools.map(({ name }) => name).join() !== before.map(({ name }) => name).join()
  ) {
    const named = unknownTools.map(({ name, nearest }) =>
      nearest ? `"${name}" (did you mean "${nearest}"?)` : `"${name}"`,
    );
    const text = `[toolrail] the session's tools name ${named.join(', ')}, which this worker does not have: the session goes on without ${unknownTools.length === 1 ? 'it' : 'them'}`;
    session.emit({ type: 'notice', text });
  }
}

/** Queued texts and the references they were stored under, in order (what `messages_stored` says). */
export function storedAs(
  texts: readonly string[],
  refs: readonly MessageRef[],
): { text: string; message: MessageRef }[] {
  return texts.flatMap((text, index) => {
    const message = refs[index];
    return message ? [{ text, message }] : [];
  });
}
