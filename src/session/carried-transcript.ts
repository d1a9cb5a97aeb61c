import type { TranscriptEntry } from './session-views';

type UserEntry = Extract<TranscriptEntry, { kind: 'user' }>;
type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

/**
 * A transcript entry as continue-as-new carries it: a user message or tool result whose text is
 * its message's preview leaves the text out, so the preview travels once (it is written twice, in
 * the continue-as-new event and the next run's start). An entry carried whole, as earlier versions
 * carried every entry, reads as it is.
 */
export type CarriedTranscriptEntry =
  | Exclude<TranscriptEntry, UserEntry | ToolEntry>
  | (Omit<UserEntry, 'text'> & { text?: string })
  | (Omit<ToolEntry, 'content'> & { content?: string });

/** `entry` as continue-as-new carries it (see {@link CarriedTranscriptEntry}). */
export function packTranscriptEntry(entry: TranscriptEntry): CarriedTranscriptEntry {
  if (entry.kind === 'user' && entry.ref !== undefined && entry.text === entry.ref.preview) {
    const { text: _text, ...packed } = entry;
    return packed;
  }
  if (entry.kind === 'tool' && entry.ref !== undefined && entry.content === entry.ref.preview) {
    const { content: _content, ...packed } = entry;
    return packed;
  }
  return entry;
}

/** A carried entry whole again: a left-out text is its message's preview. */
export function unpackTranscriptEntry(entry: CarriedTranscriptEntry): TranscriptEntry {
  if (entry.kind === 'user') return { ...entry, text: entry.text ?? entry.ref?.preview ?? '' };
  if (entry.kind === 'tool') return { ...entry, content: entry.content ?? entry.ref?.preview ?? '' };
  return entry;
}
