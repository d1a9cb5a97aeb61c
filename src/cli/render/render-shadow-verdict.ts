import type { ShadowReasonView, ShadowVerdict } from '../../session';

function reasonText({ code, message, callFirst, rule }: ShadowReasonView): string {
  const first = callFirst?.length ? ` (call first: ${callFirst.join(' → ')})` : '';
  return `[${code}] ${message.replace(/\s+/g, ' ').trim()}${first} (rule ${rule})`;
}

/**
 * What shadow rules would have done, as one readable line without its turn (what `toolrail follow`
 * and `toolrail transcript` print after it): marked `◌`, since none of it was enforced.
 */
export function renderShadowVerdict(verdict: ShadowVerdict<ShadowReasonView>, omitted = 0): string {
  switch (verdict.kind) {
    case 'hidden': {
      const tools = verdict.tools.map(({ tool, reasons }) => `${tool}: ${reasons.map(reasonText).join('; ')}`);
      const more = omitted > 0 ? ` | and ${omitted} more` : '';
      const ended = verdict.ended ? ` (that would leave no tool: ${verdict.ended})` : '';
      return `◌ shadow rules would hide${ended}: ${tools.join(' | ')}${more}`;
    }
    case 'refused':
      return `◌ ${verdict.tool} runs; shadow rules would refuse it: ${verdict.reasons.map(reasonText).join('; ')}`;
    case 'approval':
      return `◌ ${verdict.tool} runs without a human; a shadow requires_approval rule would ask for approval`;
    case 'end':
      return `◌ the answer ends the run; shadow rules would refuse it: ${verdict.reasons.map(reasonText).join('; ')}`;
  }
}
