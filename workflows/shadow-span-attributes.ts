import type { Attributes, Span } from '@opentelemetry/api';
import type { Reason } from '../src/rules';
import type { SessionEventOf } from '../src/session';

/**
 * What shadow rules would have done, as attributes: hidden tools and a refused answer on the turn's
 * span, a refused call or one they would have put up for approval on the call's span (kept in `calls`
 * until it starts).
 */
export function shadowSpanAttributes(
  event: SessionEventOf<'rule_shadowed'>,
  { turn, calls }: { turn: Span | undefined; calls: Map<string, Attributes> },
): void {
  const lines = (reasons: readonly Reason[]): string[] => reasons.map(({ code, message }) => `[${code}] ${message}`);
  switch (event.kind) {
    case 'hidden':
      turn?.setAttributes({
        'toolrail.shadow.hidden': event.tools.map(({ tool }) => tool),
        'toolrail.shadow.hidden_reasons': event.tools.flatMap(({ tool, reasons }) =>
          lines(reasons).map((line) => `${tool}: ${line}`),
        ),
        ...(event.ended === undefined ? {} : { 'toolrail.shadow.ended': event.ended }),
      });
      return;
    case 'end':
      turn?.setAttributes({
        'toolrail.shadow.end_reason_codes': event.reasons.map(({ code }) => code),
        'toolrail.shadow.end_reasons': lines(event.reasons),
      });
      return;
    case 'refused':
    case 'approval':
      calls.set(event.callId, {
        'toolrail.shadow.verdict': event.kind,
        ...(event.reasons.length === 0
          ? {}
          : {
              'toolrail.shadow.reason_codes': event.reasons.map(({ code }) => code),
              'toolrail.shadow.reasons': lines(event.reasons),
            }),
      });
      return;
  }
}
