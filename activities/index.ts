// The session's activities (Node side): what the worker registers, and the types the workflow
// calls them through (type-only imports, erased from the workflow bundle).
export { createSessionActivities } from './create-session-activities';
export type { CallModelResult, SessionActivities } from './types';
export type { ModelTextDelta, SessionActivityDependencies } from './create-session-activities';
