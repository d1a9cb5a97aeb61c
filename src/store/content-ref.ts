/**
 * What a session holds instead of a message's bytes: the content's address in the session's
 * content store, its size and a short preview. Plain JSON, safe in workflow code.
 */
export interface ContentRef {
  /**
   * The key it is stored under: the SHA-256 (lower-case hex) of the bytes stored, which are the
   * content's UTF-8 bytes, or with payload codecs their encoded form (see `encodedContent`).
   */
  key: string;
  /** Size of the content in UTF-8 bytes. */
  bytes: number;
  /** The first characters of the content (at most {@link previewChars}), for transcripts and the UI. */
  preview: string;
}

/** Longest preview a {@link ContentRef} carries, in characters (200). */
export { previewChars } from '../text';
