// Spans of a session's turns, model calls, batches and tool calls, with the rule decisions as
// attributes. They go to the tracer that Temporal's OpenTelemetry workflow interceptors register in
// the workflow sandbox (exported through the worker's sink, never during replay); without those
// interceptors (tracing off) the API's no-op tracer makes every function here a plain call.
import { context as otelContext, createContextKey, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span } from '@opentelemetry/api';
import type { CallModelResult } from '../activities';
import type { PreparedCall, ToolOutcome } from '../src/dispatch';
import type { TranscriptEntry } from '../src/session';
import type { SessionState } from './session-state';

/** Span names: one session (Temporal's `RunWorkflow:agentSession`) holds turns, which hold the rest. */
export const sessionSpanNames = {
  turn: 'toolrail.turn',
  modelCall: 'toolrail.model_call',
  batch: 'toolrail.batch',
  toolCall: 'toolrail.tool_call',
} as const;

const batchKey = createContextKey('toolrail.batch');

/** Runs `body` in an active span named `name`; the span ends (with an error status if `body` throws) when it settles. */
function inSpan<T>(name: string, attributes: Attributes, body: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer('toolrail').startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await body(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** One line per reason: `[code] message`. */
function reasonLines(reasons: readonly { code: string; message: string }[]): string[] {
  return reasons.map(({ code, message }) => `[${code}] ${message}`);
}

/**
 * Traces one turn (`toolrail.turn`): session, run and turn index; when it ends, the tools the rules
 * left visible, the calls proposed, allowed and blocked (with tools and reasons), and why the run
 * ended if it did. Read from the transcript lines the turn wrote.
 */
export function traceTurn<T extends { reason: string; detail?: string } | undefined>(
  context: SessionState,
  turn: () => Promise<T>,
): Promise<T> {
  const from = context.transcript.length;
  const attributes = {
    'toolrail.session.id': context.sessionId,
    'toolrail.run.index': context.counters.runs,
    'toolrail.turn.index': context.counters.turns,
  };
  return inSpan(sessionSpanNames.turn, attributes, async (span) => {
    const end = await turn();
    span.setAttributes(turnAttributes(context.transcript.slice(from)));
    if (end !== undefined) {
      span.setAttribute('toolrail.run.end', end.reason);
      if (end.detail !== undefined) span.setAttribute('toolrail.run.end_detail', end.detail);
    }
    return end;
  });
}

function turnAttributes(entries: readonly TranscriptEntry[]): Attributes {
  const attributes: Attributes = {};
  const blocked: Extract<TranscriptEntry, { kind: 'verdict' }>[] = [];
  let allowed = 0;
  for (const entry of entries) {
    if (entry.kind === 'model') {
      attributes['toolrail.tools.visible_count'] = entry.visible.length;
      attributes['toolrail.tools.visible'] = entry.visible;
      attributes['toolrail.calls.proposed'] = entry.calls.length;
    } else if (entry.kind === 'verdict') {
      if (entry.verdict === 'blocked') blocked.push(entry);
      else allowed += 1;
    }
  }
  attributes['toolrail.calls.allowed'] = allowed;
  attributes['toolrail.calls.blocked'] = blocked.length;
  if (blocked.length > 0) {
    attributes['toolrail.calls.blocked_tools'] = blocked.map((entry) => entry.tool);
    attributes['toolrail.calls.blocked_reasons'] = blocked.flatMap((entry) =>
      reasonLines(entry.reasons).map((line) => `${entry.tool}: ${line}`),
    );
  }
  return attributes;
}

/** Traces the model call of a turn (`toolrail.model_call`): model, visible tool count, and what came back. */
export function traceModelCall<T extends CallModelResult | { interrupted: true } | { failed: string }>(
  context: SessionState,
  visibleTools: number,
  call: () => Promise<T>,
): Promise<T> {
  const settings = context.input.model;
  const attributes = {
    ...('provider' in settings ? { 'toolrail.model.provider': settings.provider } : {}),
    'toolrail.model.name': 'id' in settings ? settings.id : settings.model,
    'toolrail.tools.visible_count': visibleTools,
  };
  return inSpan(sessionSpanNames.modelCall, attributes, async (span) => {
    const result = await call();
    if ('interrupted' in result) span.setAttribute('toolrail.model.outcome', 'interrupted');
    else if ('failed' in result) {
      span.setAttribute('toolrail.model.outcome', 'failed');
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.failed });
    } else {
      const { response } = result;
      span.setAttribute('toolrail.model.outcome', response.toolCalls.length > 0 ? 'tool_calls' : 'text');
      span.setAttribute('toolrail.model.tool_calls', response.toolCalls.length);
      if (response.finishReason !== undefined) span.setAttribute('toolrail.model.finish_reason', response.finishReason);
      if (response.usage !== undefined) {
        span.setAttribute('toolrail.usage.input_tokens', response.usage.inputTokens);
        span.setAttribute('toolrail.usage.output_tokens', response.usage.outputTokens);
      }
    }
    return result;
  });
}

/**
 * Traces one batch of calls that run together (`toolrail.batch`): its 0-based index in the turn,
 * its size (calls partitioned into it) and how many of them run; the tool calls inside carry both.
 */
export function traceBatch<T>(index: number, size: number, running: number, run: () => Promise<T>): Promise<T> {
  const batch = { 'toolrail.batch.index': index, 'toolrail.batch.size': size };
  return otelContext.with(otelContext.active().setValue(batchKey, batch), () =>
    inSpan(sessionSpanNames.batch, { ...batch, 'toolrail.batch.running': running }, () => run()),
  );
}

/** Traces one call that runs (`toolrail.tool_call`, verdict `allowed`): tool, call id, batch, approval, outcome. */
export function traceToolCall<T extends { outcome: ToolOutcome }>(
  prepared: PreparedCall,
  approved: boolean,
  run: () => Promise<T>,
): Promise<T> {
  const batch = (otelContext.active().getValue(batchKey) as Attributes | undefined) ?? {};
  const attributes = {
    ...callAttributes(prepared.toolName, prepared.callId),
    ...batch,
    'toolrail.verdict': 'allowed',
    'toolrail.approved': approved,
  };
  return inSpan(sessionSpanNames.toolCall, attributes, async (span) => {
    const executed = await run();
    const { outcome } = executed;
    span.setAttribute('toolrail.tool.outcome', outcome.type === 'tool-result' ? 'result' : 'error');
    if (outcome.type === 'tool-error') {
      span.setAttribute('toolrail.tool.error_code', outcome.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message });
    }
    return executed;
  });
}

/** Traces a call the rules refused (`toolrail.tool_call`, verdict `blocked`, with the reasons); allowed calls are traced when they run. */
export function traceVerdict(
  prepared: PreparedCall,
  verdict: { verdict: 'allowed' | 'blocked'; reasons: readonly { code: string; message: string }[] },
): void {
  if (verdict.verdict !== 'blocked') return;
  const span = trace.getTracer('toolrail').startSpan(sessionSpanNames.toolCall, {
    attributes: {
      ...callAttributes(prepared.toolName, prepared.callId),
      'toolrail.verdict': 'blocked',
      'toolrail.verdict.reason_codes': verdict.reasons.map(({ code }) => code),
      'toolrail.verdict.reasons': reasonLines(verdict.reasons),
    },
  });
  span.end();
}

function callAttributes(tool: string, callId: string): Attributes {
  return { 'toolrail.tool.name': tool, 'toolrail.tool.call_id': callId };
}
