/**
 * The `toolrail` command line (Node side). Other parts use only its transcript renderer.
 * @module
 */
export { renderTranscriptEntry } from './render/render-transcript-entry';
