/**
 * Starting, listing and driving sessions from outside the workflow (Node side).
 * @module
 */
export { ToolrailClient } from './toolrail-client';
export type { SessionListing, StartSessionOptions } from './toolrail-client';
export { SessionHandle } from './session-handle';
export { closedAtRecord, pruneSessions } from './prune-sessions';
export type { PruneReport, PruneSessionsOptions, PrunedSession } from './prune-sessions';
