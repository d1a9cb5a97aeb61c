/**
 * The `toolrail` command line (Node side). The package root re-exports its transcript renderer.
 * @module
 */
export { renderTranscriptEntry } from './render/render-transcript-entry';
