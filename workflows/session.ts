import type { CancellationScope } from '@temporalio/workflow';
import { shadowVerdictOf } from '../src/session';
import type { SessionEvent, ShadowStep } from '../src/session';
import type { FeedView } from './feed-view';
import { applyEvent } from './session-state';
import type { SessionState } from './session-state';
import type { SessionSpans } from './session-spans';
import type { SessionView } from './session-view';
import type { TranscriptView } from './transcript-view';

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
  /** The live feed (`feed-view.ts`). */
  readonly feed: FeedView;
  /** The span view, when tracing is on. */
  readonly spans: SessionSpans | undefined;
}

/** A session over `state`, whose events reach the transcript, the feed, `views` (in order) and the spans. */
export function createSession(
  state: SessionState,
  { transcript, feed }: { transcript: TranscriptView; feed: FeedView },
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

/** Runs `schedule` (which schedules an activity) under the span of `key` when tracing is on. */
export function traced<T>(session: Session, key: string, schedule: () => T): T {
  return session.spans ? session.spans.within(key, schedule) : schedule();
}

/** What shadow rules would have done at this step, if anything, as a `rule_shadowed` event (nothing is enforced). */
export function emitShadowed(session: Session, step: ShadowStep): void {
  const shadow = shadowVerdictOf(step);
  if (shadow !== undefined) session.emit({ type: 'rule_shadowed', ...shadow });
}
