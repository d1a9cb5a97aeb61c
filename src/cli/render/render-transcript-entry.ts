import type { TranscriptEntry } from '../../session';
import { renderShadowVerdict } from './render-shadow-verdict';

const maxContentChars = 300;

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxContentChars ? `${oneLine.slice(0, maxContentChars - 1)}…` : oneLine;
}

/** One transcript entry as one or more readable lines (what the demo and `toolrail transcript` print). */
export function renderTranscriptEntry(entry: TranscriptEntry): string {
  const turn = `[turn ${entry.turn}]`;
  switch (entry.kind) {
    case 'user':
      return `${turn} user: ${shorten(entry.text)}`;
    case 'model': {
      const lines = [`${turn} visible tools: ${entry.visible.join(', ') || '(none)'}`];
      if (entry.text) lines.push(`${turn} model: ${shorten(entry.text)}`);
      for (const call of entry.calls)
        lines.push(`${turn} model calls ${call.tool}(${shorten(JSON.stringify(call.args))}) [${call.callId}]`);
      return lines.join('\n');
    }
    case 'verdict':
      return entry.verdict === 'allowed'
        ? `${turn}   ✓ ${entry.tool} allowed by the rules`
        : `${turn}   ✗ ${entry.tool} refused: ${entry.reasons
            .map(
              (reason) =>
                `[${reason.code}] ${reason.message}${reason.callFirst?.length ? ` (call first: ${reason.callFirst.join(' → ')})` : ''}`,
            )
            .join('; ')}`;
    case 'approval':
      if (entry.decision === 'interrupted') return `${turn}   ✗ ${entry.tool} not decided: the user interrupted`;
      return `${turn}   ${entry.decision === 'approved' ? '✓' : '✗'} ${entry.tool} ${entry.decision.replace('_', ' ')} by a human${entry.reason ? `: ${entry.reason}` : ''}`;
    case 'tool':
      if (entry.code === 'RULE_BLOCKED') return `${turn}   ! ${entry.tool}: not run; the model reads the reasons above`;
      return `${turn}   ${entry.isError ? '!' : '→'} ${entry.tool}: ${shorten(entry.content)}`;
    case 'shadow': {
      const { kind } = entry.shadow;
      // Calls are indented under their verdicts, as those are.
      return `${turn} ${kind === 'hidden' || kind === 'end' ? '' : '  '}${renderShadowVerdict(entry.shadow, entry.omitted)}`;
    }
    case 'run-end':
      return `${turn} run ended: ${entry.reason}${entry.detail ? ` (${entry.detail})` : ''}`;
    case 'notice':
      return `${turn} ${shorten(entry.text)}`;
  }
}
