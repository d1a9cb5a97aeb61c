import type { TranscriptEntry } from '../session';

/** A `tool` entry of the transcript: what the model read back for one call. */
export type ToolTranscriptEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

/**
 * Returns the full text of a tool result. The default reads the entry's `content`; pass your own
 * when the transcript holds previews and the full text lives elsewhere (a content store).
 */
export type ReadToolContent = (entry: ToolTranscriptEntry) => string | Promise<string>;

/** One call the model proposed, with what the session did about it. */
export interface RecordedCall {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
  /** The rules' verdict; absent when the call never reached the rules (bad arguments, unknown tool). */
  readonly verdict?: 'allowed' | 'blocked';
  /** The human decision, for calls that waited for one. */
  readonly approval?: 'approved' | 'denied' | 'timed_out' | 'interrupted';
  /** What the model read back for the call (its full text), and whether it was an error. */
  readonly outcome?: { readonly content: string; readonly isError: boolean; readonly code?: string };
}

/** One event of a recorded session, in order: a user message, or one model response (one turn). */
export type RecordedEvent =
  | { readonly kind: 'user'; readonly text: string }
  | {
      readonly kind: 'model';
      readonly turn: number;
      readonly text?: string;
      readonly visible: readonly string[];
      readonly calls: readonly RecordedCall[];
    };

/**
 * Reads a session's transcript into its user messages and model responses, each call joined with
 * its verdict, approval and outcome. The one place that reads transcript entries for exports: tool
 * results go through `readToolContent`.
 */
export async function readTranscript(
  entries: readonly TranscriptEntry[],
  readToolContent: ReadToolContent = (entry) => entry.content,
): Promise<RecordedEvent[]> {
  const verdicts = new Map<string, 'allowed' | 'blocked'>();
  const approvals = new Map<string, NonNullable<RecordedCall['approval']>>();
  const outcomes = new Map<string, NonNullable<RecordedCall['outcome']>>();
  for (const entry of entries) {
    if (entry.kind === 'verdict') verdicts.set(entry.callId, entry.verdict);
    else if (entry.kind === 'approval') approvals.set(entry.callId, entry.decision);
    else if (entry.kind === 'tool') {
      outcomes.set(entry.callId, {
        content: await readToolContent(entry),
        isError: entry.isError,
        ...(entry.code === undefined ? {} : { code: entry.code }),
      });
    }
  }
  const events: RecordedEvent[] = [];
  for (const entry of entries) {
    if (entry.kind === 'user') events.push({ kind: 'user', text: entry.text });
    if (entry.kind !== 'model') continue;
    const calls = entry.calls.map(({ callId, tool, args }): RecordedCall => {
      const verdict = verdicts.get(callId);
      const approval = approvals.get(callId);
      const outcome = outcomes.get(callId);
      return {
        callId,
        tool,
        args,
        ...(verdict === undefined ? {} : { verdict }),
        ...(approval === undefined ? {} : { approval }),
        ...(outcome === undefined ? {} : { outcome }),
      };
    });
    events.push({
      kind: 'model',
      turn: entry.turn,
      ...(entry.text === undefined ? {} : { text: entry.text }),
      visible: entry.visible,
      calls,
    });
  }
  return events;
}
