/**
 * The conversation's Node side: reading and writing messages and log segments in the content
 * store, and building what the model sees within its context budget. The log's shape, which the
 * workflow carries, is in src/session.
 * @module
 */
export { buildModelMessages } from './build-model-messages';
export { createConversationReader } from './conversation-reader';
export type { ConversationReader } from './conversation-reader';
export { decodeMessage, encodeMessage, textOf } from './encode-message';
