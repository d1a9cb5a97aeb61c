/**
 * What a session holds instead of a message's bytes: the content's address in the session's
 * content store, its size and a short preview. Plain JSON, safe in workflow code.
 */
export interface ContentRef {
  /** SHA-256 of the content's UTF-8 bytes, lower-case hex: the key it is stored under. */
  key: string;
  /** Size of the content in UTF-8 bytes. */
  bytes: number;
  /** The first characters of the content (at most {@link previewChars}), for transcripts and the UI. */
  preview: string;
}

/** Longest preview a {@link ContentRef} carries, in characters. */
export const previewChars = 200;
