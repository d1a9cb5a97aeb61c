/**
 * The live channel beside a session's durable feed: feed events once durable, text as the model
 * writes it and cancellations, between workers and watchers (Node side).
 * @module
 */
export type { LiveChannel, LiveListener, LiveState, LiveSubscription } from './live-channel';
export { LiveChannelError } from './live-channel-error';
export type { LiveChannelErrorCode } from './live-channel-error';
export { cancelTopic, readLiveMessage, sessionTopic } from './live-message';
export type { LiveCancel, LiveFeedEvents, LiveFeedMore, LiveMessage, LiveText } from './live-message';
export { LocalLiveChannel, defaultLocalLiveDirectory } from './local-live-channel';
export type { LocalLiveChannelOptions } from './local-live-channel';
export { PostgresLiveChannel } from './postgres-live-channel';
export type { PostgresLiveChannelOptions } from './postgres-live-channel';
export { liveChannelEnv, openLiveChannel } from './open-live-channel';
export type { OpenLiveChannelOptions } from './open-live-channel';
export { FeedRelay } from './feed-relay';
export type { FeedRelayOptions, RelayConnection, SinkOrigin } from './feed-relay';
export { LiveCalls, LiveCancelledError } from './live-calls';
export type { CallKind, TrackedCall } from './live-calls';
export { createLiveWorker } from './live-worker';
export type { LiveWorker, LiveWorkerOptions } from './live-worker';
