import type { TranscriptEntry } from '../../src/session/session-views';

/** The transcript entries of one kind, typed. */
export function entriesOf<KIND extends TranscriptEntry['kind']>(
  transcript: readonly TranscriptEntry[],
  kind: KIND,
): Extract<TranscriptEntry, { kind: KIND }>[] {
  return transcript.filter((entry): entry is Extract<TranscriptEntry, { kind: KIND }> => entry.kind === kind);
}

/** The tool result the model read for call `callId`; throws when there is not exactly one. */
export function toolResultOf(
  transcript: readonly TranscriptEntry[],
  callId: string,
): Extract<TranscriptEntry, { kind: 'tool' }> {
  const found = entriesOf(transcript, 'tool').filter((entry) => entry.callId === callId);
  if (found.length !== 1) throw new Error(`expected one tool result for ${callId}, found ${found.length}`);
  return found[0] as Extract<TranscriptEntry, { kind: 'tool' }>;
}

/** The transcript as `kind:detail` lines, to assert the order of what happened. */
export function outline(transcript: readonly TranscriptEntry[]): string[] {
  return transcript.map((entry) => {
    switch (entry.kind) {
      case 'user':
        return `user:${entry.text}`;
      case 'model':
        return `model:${entry.calls.map((call) => `${call.tool}#${call.callId}`).join(',') || 'text'}`;
      case 'verdict':
        return `verdict:${entry.tool}#${entry.callId}:${entry.verdict}`;
      case 'approval':
        return `approval:${entry.tool}#${entry.callId}:${entry.decision}`;
      case 'tool':
        return `tool:${entry.tool}#${entry.callId}:${entry.isError ? (entry.code ?? 'error') : 'ok'}`;
      case 'shadow': {
        const { shadow } = entry;
        if (shadow.kind === 'hidden') return `shadow:hidden:${shadow.tools.map(({ tool }) => tool).join(',')}`;
        return shadow.kind === 'end' ? 'shadow:end' : `shadow:${shadow.kind}:${shadow.tool}#${shadow.callId}`;
      }
      case 'run-end':
        return `run-end:${entry.reason}`;
      case 'notice':
        return 'notice';
    }
  });
}
