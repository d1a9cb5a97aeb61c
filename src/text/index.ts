/**
 * Text helpers every part shares: UTF-8 sizes, truncation and previews, and "did you mean" name
 * suggestions. Pure and deterministic, imports no other part: the workflow may import it.
 * @module
 */
export { nearestName, suggestName } from './nearest-name';
export { previewChars, previewOf, truncateUtf8, utf8ByteLength } from './utf8';
