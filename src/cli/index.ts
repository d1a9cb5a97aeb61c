/**
 * The `toolrail` command line (Node side). The package root re-exports its transcript and feed renderers.
 * @module
 */
export { renderTranscriptEntry } from './render/render-transcript-entry';
export { renderFeedEvent } from './render/render-feed-event';
