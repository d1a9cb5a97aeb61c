import type { SessionEvent } from '../src/session';
import type { SessionState } from './session-state';

/**
 * Something that sees every event once the state has applied it: the transcript, the feed, the
 * Temporal UI, the spans.
 */
export type SessionView = (event: SessionEvent, state: SessionState) => void;
