// Spans of a session's turns, model calls, batches and tool calls, built from its events, with the
// rule decisions as attributes. They go to the tracer that Temporal's OpenTelemetry workflow
// interceptors register in the workflow sandbox (exported through the worker's sink, never during
// replay). Without those interceptors (tracing off) there is no span view and no tracing work.
import { context as otelContext, ProxyTracerProvider, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { unhandledEvent } from '../src/session';
import { shadowSpanAttributes } from './shadow-span-attributes';
import type { SessionView } from './session-view';

/** Span names: one session (Temporal's `RunWorkflow:agentSession`) holds turns, which hold the rest. */
export const sessionSpanNames = {
  turn: 'toolrail.turn',
  modelCall: 'toolrail.model_call',
  batch: 'toolrail.batch',
  toolCall: 'toolrail.tool_call',
} as const;

/** The session's spans, as a view of its events. */
export interface SessionSpans {
  readonly onEvent: SessionView;
  /**
   * Runs `schedule` (which schedules an activity) in the span of the model call (`'model'`) or of
   * the tool call `callId`, so Temporal's `StartActivity:*` span nests under it.
   */
  within<T>(key: string, schedule: () => T): T;
}

/** The spans of the session, or `undefined` when tracing is off (no tracer registered in the sandbox). */
export function sessionSpans(): SessionSpans | undefined {
  const provider = trace.getTracerProvider();
  if (provider instanceof ProxyTracerProvider && provider.getDelegateTracer('toolrail') === undefined) return undefined;
  const tracer = trace.getTracer('toolrail');
  const sessionContext = otelContext.active();
  const open = new Map<string, Span>();
  let turnContext: Context = sessionContext;
  let turnTally: { proposed: number; allowed: number; blockedTools: string[]; blockedReasons: string[] } | undefined;
  let batch: Attributes = {};
  // What shadow rules would have done to calls not started yet: set on their spans when they start.
  const shadowedCalls = new Map<string, Attributes>();

  const start = (key: string, name: string, attributes: Attributes, parent: Context): Span => {
    const span = tracer.startSpan(name, { attributes }, parent);
    open.set(key, span);
    return span;
  };
  const end = (key: string, attributes: Attributes = {}, error?: string): void => {
    const span = open.get(key);
    if (span === undefined) return;
    span.setAttributes(attributes);
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    span.end();
    open.delete(key);
  };
  const endTurn = (attributes: Attributes = {}): void => {
    if (turnTally === undefined) return;
    const { proposed, allowed, blockedTools, blockedReasons } = turnTally;
    end('turn', {
      'toolrail.calls.proposed': proposed,
      'toolrail.calls.allowed': allowed,
      'toolrail.calls.blocked': blockedTools.length,
      ...(blockedTools.length > 0
        ? { 'toolrail.calls.blocked_tools': blockedTools, 'toolrail.calls.blocked_reasons': blockedReasons }
        : {}),
      ...attributes,
    });
    turnTally = undefined;
    turnContext = sessionContext;
  };

  const onEvent: SessionView = (event, current) => {
    switch (event.type) {
      case 'turn_started': {
        endTurn();
        const span = start(
          'turn',
          sessionSpanNames.turn,
          {
            'toolrail.session.id': current.sessionId,
            'toolrail.run.index': current.counters.runs,
            'toolrail.turn.index': event.turn,
          },
          sessionContext,
        );
        turnContext = trace.setSpan(sessionContext, span);
        shadowedCalls.clear();
        turnTally = { proposed: 0, allowed: 0, blockedTools: [], blockedReasons: [] };
        return;
      }
      case 'tools_narrowed':
        open.get('turn')?.setAttributes({
          'toolrail.tools.visible_count': event.visible.length,
          'toolrail.tools.visible': event.visible,
        });
        return;
      case 'model_call_started':
        start(
          'model',
          sessionSpanNames.modelCall,
          {
            ...('provider' in current.input.model ? { 'toolrail.model.provider': current.input.model.provider } : {}),
            'toolrail.model.name': 'id' in current.input.model ? current.input.model.id : current.input.model.model,
            'toolrail.tools.visible_count': event.tools,
          },
          turnContext,
        );
        return;
      case 'model_responded':
        if (turnTally) turnTally.proposed = event.calls.length;
        return end('model', {
          'toolrail.model.outcome': event.calls.length > 0 ? 'tool_calls' : 'text',
          'toolrail.model.tool_calls': event.calls.length,
          ...(event.finishReason === undefined ? {} : { 'toolrail.model.finish_reason': event.finishReason }),
          ...(event.usage === undefined
            ? {}
            : {
                'toolrail.usage.input_tokens': event.usage.inputTokens,
                'toolrail.usage.output_tokens': event.usage.outputTokens,
              }),
        });
      case 'catalog_changed':
        // The model call brought a changed catalog back instead of an answer: the turn asks again.
        return end('model', { 'toolrail.model.outcome': 'catalog_changed' });
      case 'model_call_failed':
        return event.interrupted
          ? end('model', { 'toolrail.model.outcome': 'interrupted' })
          : end('model', { 'toolrail.model.outcome': 'failed' }, event.error ?? 'failed');
      case 'verdict': {
        if (event.verdict === 'allowed') {
          if (turnTally) turnTally.allowed += 1;
          return;
        }
        const reasons = event.reasons.map(({ code, message }) => `[${code}] ${message}`);
        turnTally?.blockedTools.push(event.tool);
        turnTally?.blockedReasons.push(...reasons.map((line) => `${event.tool}: ${line}`));
        const attributes = {
          ...callAttributes(event.tool, event.callId),
          'toolrail.verdict': 'blocked',
          'toolrail.verdict.reason_codes': event.reasons.map(({ code }) => code),
          'toolrail.verdict.reasons': reasons,
        };
        tracer.startSpan(sessionSpanNames.toolCall, { attributes }, turnContext).end();
        return;
      }
      case 'rule_shadowed':
        return shadowSpanAttributes(event, { turn: open.get('turn'), calls: shadowedCalls });
      case 'batch_started':
        batch = { 'toolrail.batch.index': event.index, 'toolrail.batch.size': event.size };
        start(
          'batch',
          sessionSpanNames.batch,
          { ...batch, 'toolrail.batch.running': event.callIds.length },
          turnContext,
        );
        return;
      case 'tool_started': {
        const parent = open.get('batch');
        start(
          `call:${event.callId}`,
          sessionSpanNames.toolCall,
          {
            ...callAttributes(event.tool, event.callId),
            ...batch,
            'toolrail.verdict': 'allowed',
            'toolrail.approved': event.approved,
            ...shadowedCalls.get(event.callId),
          },
          parent ? trace.setSpan(turnContext, parent) : turnContext,
        );
        return;
      }
      case 'tool_ended': {
        const { outcome } = event;
        return outcome.type === 'tool-result'
          ? end(`call:${event.callId}`, { 'toolrail.tool.outcome': 'result' })
          : end(
              `call:${event.callId}`,
              { 'toolrail.tool.outcome': 'error', 'toolrail.tool.error_code': outcome.code },
              outcome.message,
            );
      }
      case 'batch_ended':
        return end('batch');
      case 'run_ended':
        return endTurn({
          'toolrail.run.end': event.reason,
          ...(event.detail === undefined ? {} : { 'toolrail.run.end_detail': event.detail }),
        });
      case 'continued_as_new':
      case 'session_ended':
        for (const key of [...open.keys()].filter((key) => key !== 'turn')) end(key);
        return endTurn();
      case 'message_received':
      case 'messages_stored':
      case 'run_started':
      case 'model_text':
      case 'end_refused':
      case 'approvals_requested':
      case 'approval_decided':
      case 'approvals_closed':
      case 'batch_cancelled':
      case 'results_appended':
      case 'log_sealed':
      case 'interrupt_received':
      case 'end_requested':
      case 'notice':
      case 'store_identified':
      case 'store_waiting':
      case 'store_back':
      case 'worker_waiting':
      case 'worker_back':
        return;
      default:
        return unhandledEvent(event);
    }
  };

  return {
    onEvent,
    within(key, schedule) {
      const span = open.get(key === 'model' ? 'model' : `call:${key}`);
      return span ? otelContext.with(trace.setSpan(otelContext.active(), span), schedule) : schedule();
    },
  };
}

function callAttributes(tool: string, callId: string): Attributes {
  return { 'toolrail.tool.name': tool, 'toolrail.tool.call_id': callId };
}
