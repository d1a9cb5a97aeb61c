import { unhandledEvent } from '../../session';
import type { FeedEvent, FeedReason, FeedValue } from '../../session';
import { renderShadowVerdict } from './render-shadow-verdict';

const maxChars = 300;

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxChars ? `${oneLine.slice(0, maxChars - 1)}…` : oneLine;
}

function valueText(value: FeedValue): string {
  return shorten(value.truncated ? `${value.preview}…` : JSON.stringify(value.value));
}

function reasonsText(reasons: readonly FeedReason[]): string {
  return reasons
    .map(
      ({ code, message, callFirst }) =>
        `[${code}] ${message}${callFirst?.length ? ` (call first: ${callFirst.join(' → ')})` : ''}`,
    )
    .join('; ');
}

/**
 * One live feed event as a readable line (what `toolrail follow` and the demo print), or
 * `undefined` for the events that only mark progress (a turn began, a batch ended, results joined
 * the conversation).
 */
export function renderFeedEvent(event: FeedEvent): string | undefined {
  const at = `[turn ${event.turn}]`;
  switch (event.type) {
    case 'message_received':
      return `${at} user message queued: ${shorten(event.preview)}`;
    case 'run_started':
      return `${at} run ${event.run} begins: ${shorten(event.message.preview)}`;
    case 'tools_narrowed': {
      // Hidden tools by name and reason code (the verdicts spell reasons out in full).
      const hidden = event.hidden.map(({ tool, reasons }) => `${tool} [${reasons.map(({ code }) => code).join(', ')}]`);
      return `${at} visible tools: ${event.visible.join(', ') || '(none)'}${hidden.length ? `; hidden: ${hidden.join('; ')}` : ''}`;
    }
    case 'model_call_started':
      return `${at} the model is asked (${event.tools} tools)`;
    case 'rule_shadowed': {
      const { type: _type, offset: _offset, at: _at, run: _run, turn: _turn, omitted, ...verdict } = event;
      // Calls are indented under their verdicts, as those are.
      return `${at} ${verdict.kind === 'hidden' || verdict.kind === 'end' ? '' : '  '}${renderShadowVerdict(verdict, omitted)}`;
    }
    case 'text_delta':
      return `${at} model writes: ${shorten(event.text)}`;
    case 'model_responded': {
      const lines = event.text ? [`${at} model: ${shorten(event.text)}`] : [];
      // A model that stopped for another reason than an answer or its calls says why.
      if (event.finishReason !== undefined && !['stop', 'tool-calls', 'other'].includes(event.finishReason))
        lines.push(
          `${at} model stopped: ${event.finishReason}${event.rawFinishReason ? ` (${event.rawFinishReason})` : ''}`,
        );
      for (const call of event.calls)
        lines.push(`${at} model calls ${call.tool}(${valueText(call.args)}) [${call.callId}]`);
      return lines.join('\n') || `${at} model answered`;
    }
    case 'model_call_failed':
      return event.interrupted
        ? `${at} model call interrupted`
        : `${at} model call failed: ${shorten(event.error ?? '')}`;
    case 'end_refused':
      return `${at} ${shorten(event.text)}`;
    case 'verdict':
      return event.verdict === 'allowed'
        ? `${at}   ✓ ${event.tool} allowed by the rules`
        : `${at}   ✗ ${event.tool} refused: ${reasonsText(event.reasons)}`;
    case 'approvals_requested':
      return event.approvals
        .map(
          (approval) =>
            `${at}   ? ${approval.tool}(${valueText(approval.input)}) waits for approval [${approval.callId}]: ${approval.reason}`,
        )
        .join('\n');
    case 'approval_decided':
      return `${at}   ${event.approved ? '✓' : '✗'} ${event.callId} ${event.approved ? 'approved' : 'denied'} by a human${event.reason ? `: ${event.reason}` : ''}`;
    case 'approvals_closed': {
      const undecided = event.decisions.filter(
        ({ decision }) => decision === 'timed_out' || decision === 'interrupted',
      );
      return undecided.length === 0
        ? undefined
        : undecided
            .map(({ tool, decision }) => `${at}   ✗ ${tool} not decided: ${decision.replace('_', ' ')}`)
            .join('\n');
    }
    case 'batch_started':
      return event.size > 1 ? `${at} ${event.callIds.length} calls run together` : undefined;
    case 'tool_started':
      return `${at}   … ${event.tool} runs [${event.callId}]`;
    case 'tool_ended':
      return `${at}   ${event.isError ? '!' : '→'} ${event.tool}: ${valueText(event.output)}`;
    case 'batch_cancelled':
      return `${at}   ✗ not run (interrupted): ${event.callIds.join(', ')}`;
    case 'interrupt_received':
      return `${at} the user interrupts${event.message ? `: ${shorten(event.message)}` : ''}`;
    case 'end_requested':
      return `${at} the session is asked to end`;
    case 'run_ended': {
      const tokens = event.usage ? event.usage.inputTokens + event.usage.outputTokens : 0;
      const used = tokens > 0 ? `; ${event.usage?.inputTokens} tokens in, ${event.usage?.outputTokens} out` : '';
      return `${at} run ${event.run} ended: ${event.reason}${event.detail ? ` (${event.detail})` : ''}${used}`;
    }
    case 'notice':
      return `${at} ${shorten(event.text)}`;
    case 'store_waiting': {
      const { code, message, store, key } = event.problem;
      return `${at} waiting for the content store${store ? ` ${store}` : ''} (${code}${key ? `, ${key}` : ''}): ${shorten(message)}`;
    }
    case 'store_back':
      return `${at} the content store is back; the session goes on`;
    case 'worker_waiting':
      return `${at} ${event.tool} (call ${event.callId}) waits for a worker of task queue ${event.taskQueue} with activity ${event.activityType}: ${event.why}`;
    case 'worker_back':
      return `${at} call ${event.callId} waits for a worker no more`;
    case 'continued_as_new':
      return `${at} (the session continues in a new workflow run)`;
    case 'session_ended':
      return `the session ${event.status}`;
    case 'turn_started':
    case 'batch_ended':
    case 'results_appended':
      return undefined;
    default:
      return unhandledEvent(event);
  }
}
