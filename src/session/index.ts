/**
 * The session's deterministic core, shared by the workflow and the Node side: its input and limits,
 * status and views, messages (signals, queries, updates), search attributes, and the conversation
 * log's shape. Runs in the workflow sandbox.
 * @module
 */
export { assistantMessageText } from './assistant-message-text';
export { appendToLog, conversationLogKeys, logWithResponse, segmentEntries } from './conversation-log';
export { mergeRuleStatePages, pageBytes, readPageRequest, ruleStatePage, transcriptPage } from './answer-pages';
export type { PageRequest, PagedTranscriptEntry, RuleStatePage, TranscriptPage } from './answer-pages';
export type { ConversationLog, ConversationLogKeys, ConversationSegment, MessageRef } from './conversation-log';
export { undecodableEncoding, undecodableProblem } from './payload-converter';
export { renderCurrentDetails } from './render-current-details';
export { addUsage, emptyUsageTotals, foldUsage, totalTokens } from './model-usage';
export type { SessionUsage, UsageTotals } from './model-usage';
export { modelFinishDetail, modelFinishOutcome, modelLabel } from './model-finish';
export type { ModelFinishOutcome } from './model-finish';
export type { SessionCounters } from './session-counters';
export {
  freshCarriedState,
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  resolveSessionLimits,
} from './session-input';
export type {
  CarriedSessionState,
  CarriedTurn,
  ResolvedSessionLimits,
  SessionInput,
  SessionLimits,
  SiblingAbort,
} from './session-input';
export {
  approveToolCallUpdate,
  checkApproveToolCallInput,
  endSessionSignal,
  interruptSignal,
  messageInputSchemas,
  readMessageInput,
  ruleStateQuery,
  sendUserMessageUpdate,
  sessionMessageNames,
  statusQuery,
  transcriptQuery,
  unknownMessageText,
  userMessageSignal,
} from './session-messages';
export type { SessionMessageKind } from './session-messages';
export type { ApproveToolCallInput, InterruptInput, SentUserMessage, UserMessageInput } from './session-messages';
export {
  changedSearchAttributes,
  newSessionSearchAttributes,
  sessionSearchAttributes,
  toolrailSearchAttributes,
  toolrailStatusKey,
  toolrailTotalTokensKey,
} from './search-attributes';
export type { SessionSearchSource } from './search-attributes';
export { listedSessionStatuses, listedStatus, SessionStatus } from './session-status';
export type { ListedSessionStatus, RunEndReason } from './session-status';
export type {
  ModelContextView,
  PendingApproval,
  RunningCall,
  UnavailableTool,
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  TranscriptNote,
} from './session-views';
export {
  StoreFailureType,
  describeStore,
  foldStoreEvent,
  initialStoreState,
  isStoreFailureType,
  namingSessionStore,
} from './store-problem';
export type { SessionStoreState, StoreEvent, StoreFailureDetails, StoreIdentity, StoreProblem } from './store-problem';
export { shadowVerdictView } from './shadow-verdict';
export { shadowVerdictOf } from './shadow-verdict-of';
export type { ShadowStep } from './shadow-verdict-of';
export type { ShadowReasonView, ShadowVerdict, ShadowVerdictKind } from './shadow-verdict';
export { foldWorkerWaitEvent, noWorkerWaits } from './worker-wait';
export type { WorkerWait, WorkerWaitEvent, WorkerWaitState } from './worker-wait';
export type {
  AppendedResult,
  ApprovalDecision,
  DispatchedCall,
  ProposedCallView,
  SessionEvent,
  SessionEventOf,
  SessionEventType,
  SessionCatalog,
  UnknownToolName,
} from './session-events';
export { feedPreviewChars, feedValueBytes } from './feed-events';
export { feedEventBodyOf, feedToolListLimit, feedValueOf } from './feed-event-of';
export type {
  FeedApproval,
  FeedCall,
  FeedEvent,
  FeedEventBody,
  FeedEventOf,
  FeedEventPlace,
  FeedEventType,
  FeedReason,
  FeedResult,
  FeedValue,
} from './feed-events';
export {
  feedQuery,
  maxCarriedFeedBytes,
  maxFeedPageBytes,
  defaultFeedWindowBytes,
  maxModelTextBytes,
  modelTextSignal,
} from './feed-messages';
export type { CarriedFeed, FeedPage, FeedRequest, ModelTextInput } from './feed-messages';
export type { CancelledCalls, LiveItem, LiveSinks } from './live-sinks';
export { beginTurnInProgress, carriedTurn, settleTurnCalls } from './turn-in-progress';
export type { TurnInProgress } from './turn-in-progress';
export { toolCallFinishedLateSignal } from './tool-call-finished-late';
export { unhandledEvent } from './unhandled-event';
export { childSessionReportSignal } from './child-session-reports';
export type { ChildSessionReport } from './child-session-reports';
export type { SessionAnswer } from './session-answer';
export type { ToolCallFinishedLateInput } from './tool-call-finished-late';
export {
  buildSessionStartInputSchema,
  checkSessionInput,
  sessionInputJsonSchema,
  sessionInputSchemaFile,
  sessionStartInputSchema,
} from './session-input-schema';
export type { SessionInputCheck } from './session-input-schema';
export {
  SessionInputError,
  describeValue,
  formatInputPath,
  formatInputProblems,
  problemsOfIssues,
  readableIssues,
  refusedInputMessage,
} from './input-problems';
export type { InputProblem } from './input-problems';
export { toolrailVersion } from './toolrail-version';
