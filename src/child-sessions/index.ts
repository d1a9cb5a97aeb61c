/**
 * Sessions as steps of the user's own workflows: a session started as a child workflow, driven and
 * awaited from workflow code. Runs in the workflow sandbox (`toolrail/workflow`).
 * @module
 */
export { startChildSession } from './start-child-session';
export { ChildSessionHandle } from './child-session-handle';
export type {
  ChildSessionClosePolicy,
  ChildSessionDecision,
  ChildSessionEvent,
  ChildSessionResult,
  StartChildSessionOptions,
} from './child-session-types';
