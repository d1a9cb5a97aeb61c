/**
 * `toolrail/workflow`: what workflow code imports to run toolrail sessions as steps of its own
 * work. Safe in the Temporal workflow sandbox: deterministic code only (no Node built-ins, no I/O).
 * The worker that runs the calling workflow needs toolrail's plugin (`toolrailPlugin`).
 * @module
 */
export { ChildSessionHandle, startChildSession } from './child-sessions';
export type {
  ChildSessionClosePolicy,
  ChildSessionDecision,
  ChildSessionEvent,
  ChildSessionResult,
  StartChildSessionOptions,
} from './child-sessions';
export { SessionInputError } from './session';
export type {
  ChildSessionReport,
  PendingApproval,
  RunEndReason,
  SessionAnswer,
  SessionStatus,
  SessionUsage,
} from './session';
export type { CompiledRuleSet } from './rules';
export type { ModelSettings } from './model-settings';
