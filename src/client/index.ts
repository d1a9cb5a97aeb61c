/**
 * Starting, listing and driving sessions from outside the workflow (Node side).
 * @module
 */
export { ToolrailClient } from './toolrail-client';
export type { SendOrStartOptions, SessionListing, StartSessionOptions } from './toolrail-client';
export { SessionHandle } from './session-handle';
export { FeedGapError, followSessionFeed } from './session-feed';
export type { SessionEventsOptions } from './session-feed';
export { SentMessage } from './sent-message';
export type { RunReply } from './sent-message';
export { approvalIdOf, runMessageIdOf, uiMessageChunker } from './ui-message-chunks';
export type { ChunkOptions, UIFinishReason, UIMessageChunk, UIMessageChunkerOptions } from './ui-message-chunks';
export type { OffloadedToolOutput } from './tool-output';
export { createChatHandler } from './chat-handler';
export type { ChatHandler, ChatHandlerOptions, ChatStartOptions } from './chat-handler';
export { ChatRequestError } from './chat-request-error';
export type { ChatRequestErrorCode } from './chat-request-error';
export { toNodeListener } from './node-listener';
export { closedAtRecord, pruneSessions } from './prune-sessions';
export type { PruneReport, PruneSessionsOptions, PrunedSession } from './prune-sessions';
