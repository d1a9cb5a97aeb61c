// The session's activities (Node side): what the worker registers, and the types the workflow
// calls them through (type-only imports, erased from the workflow bundle).
export { createSessionActivities } from './create-session-activities';
export type {
  BeganSession,
  BeginSessionInput,
  CallModelInput,
  CallModelResult,
  CatalogChangedResult,
  ExecuteToolInput,
  ExecutedCall,
  SealLogInput,
  SessionActivities,
  SessionStoreInput,
  StoreMessagesInput,
  ToolsetByVersion,
} from './types';
export type { SessionActivityDependencies } from './create-session-activities';
export { createChildSessionActivities } from './child-session-activities';
export type {
  ChildSessionActivities,
  DecideSessionToolCallInput,
  DecidedSessionToolCall,
  ReadSessionTextInput,
} from './child-session-activities';
export { createLiveTextFeed, createModelTextFeed, defaultTextIntervalMs } from './model-text-feed';
export type {
  ModelTextCall,
  ModelTextContext,
  ModelTextDelta,
  ModelTextFeed,
  ModelTextStream,
} from './model-text-feed';
