/**
 * `toolrail/client`: what an application that starts, follows and approves sessions needs, and no
 * more: it loads no Temporal worker, no workflow bundler and no test code, so a web server's route
 * can hold it. Workers, tools and models are in `toolrail`; the dev server in `toolrail/testing`.
 * @module
 */

// The client and the session handle.
export { ToolrailClient, SessionHandle } from './client';
export type { StartSessionOptions, SessionListing, SendOrStartOptions } from './client';
// The live feed: a session's events as they happen, the reply to a message, the UI message stream.
export { FeedGapError, SentMessage, uiMessageChunker } from './client';
export type {
  ChunkOptions,
  OffloadedToolOutput,
  RunReply,
  SessionEventsOptions,
  UIFinishReason,
  UIMessageChunk,
  UIMessageChunkerOptions,
} from './client';
// A session behind useChat: the route handler of the AI SDK's DefaultChatTransport, and Node's http adapter.
export { createChatHandler, ChatRequestError, toNodeListener } from './client';
export type { ChatHandler, ChatHandlerOptions, ChatRequestErrorCode, ChatStartOptions } from './client';
export type {
  FeedApproval,
  FeedCall,
  FeedEvent,
  FeedEventOf,
  FeedEventType,
  FeedPage,
  FeedReason,
  FeedRequest,
  FeedResult,
  FeedValue,
  ShadowReasonView,
  ShadowVerdict,
  ShadowVerdictKind,
  SentUserMessage,
} from './session';

// The live channel beside the durable feed: text as it is written, events without a query, fast cancellations.
export {
  LiveChannelError,
  LocalLiveChannel,
  PostgresLiveChannel,
  defaultLocalLiveDirectory,
  openLiveChannel,
} from './live';
export type {
  LiveChannel,
  LiveChannelErrorCode,
  LiveListener,
  LiveMessage,
  LiveState,
  LiveSubscription,
  LocalLiveChannelOptions,
  OpenLiveChannelOptions,
  PostgresLiveChannelOptions,
} from './live';
// The rules a session starts with.
export { loadRuleSet, loadRuleDocuments } from './rules-files';
export type { LoadRuleSetOptions, LoadRuleSetResult } from './rules-files';
export { compileRuleSet, formatDiagnostic } from './rules';
export type {
  CompiledRuleSet,
  CompileRuleSetInput,
  CompileRuleSetResult,
  RuleDiagnostic,
  RuleStateView,
  Reason,
} from './rules';

// Where sessions' conversations live: a client reads (and writes large inputs to) the workers' store.
export {
  openContentStore,
  DirectoryContentStore,
  PostgresContentStore,
  createExternalStorage,
  encodedContent,
} from './store';
export type { ContentStore, ContentRef, EncodedContent, EncodedContentOptions } from './store';

// The session's signals, updates, queries, statuses and views, for a plain Temporal client too.
export {
  interruptSignal,
  userMessageSignal,
  sendUserMessageUpdate,
  endSessionSignal,
  approveToolCallUpdate,
  ruleStateQuery,
  transcriptQuery,
  statusQuery,
  feedQuery,
  SessionStatus,
  listedSessionStatuses,
  toolrailSearchAttributes,
} from './session';
export type {
  InterruptInput,
  UserMessageInput,
  ApproveToolCallInput,
  SessionInput,
  SessionLimits,
  RunEndReason,
  ListedSessionStatus,
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  PendingApproval,
  RunningCall,
  ModelContextView,
} from './session';
// The start input's check (the workflow runs the same), its zod and JSON Schemas, and the answers' pages.
export { checkSessionInput, sessionStartInputSchema, sessionInputJsonSchema, SessionInputError } from './session';
export type { InputProblem, SessionInputCheck } from './session';
export { mergeRuleStatePages, sessionMessageNames } from './session';
export type { PageRequest, PagedTranscriptEntry, RuleStatePage, TranscriptPage } from './session';
export type { ModelSettings, ModelProvider } from './model-settings';

// Errors.
export { ToolrailError } from './errors';
export { ClaimUnavailableError, ContentStoreError, ExternalStorageUnusableError } from './store';
export type { ContentStoreErrorCode } from './store';
