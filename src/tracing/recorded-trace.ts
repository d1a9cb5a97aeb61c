import type { Trace, TraceEvent } from '../rules';
import type { RecordedCall, RecordedEvent } from './read-transcript';

type TraceCall = Extract<TraceEvent, { calls: unknown }>['calls'][number];

/** Outcome codes of calls the rules allowed but that never ran (the session did not record them). */
const notRunCodes: ReadonlySet<string> = new Set(['PERMISSION_DENIED', 'APPROVAL_DENIED', 'APPROVAL_TIMEOUT']);

/**
 * Turns a recorded session into a trace for `toolrail simulate`: each user message starts a run,
 * each model response is one turn with the calls that reached the rules (calls with bad arguments
 * or unknown tools never did, and are left out), their arguments, results (read back as JSON when
 * the text parses) and failures. A call the rules allowed but that did not run (a human said no, a
 * permission denied it) is marked `approved: false`.
 */
export function recordedTrace(
  events: readonly RecordedEvent[],
  catalog: readonly string[],
  description?: string,
): Trace {
  const tools = new Set(catalog);
  for (const event of events) if (event.kind === 'model') for (const name of event.visible) tools.add(name);
  const traceEvents: TraceEvent[] = events.map((event): TraceEvent => {
    if (event.kind === 'user') return { user: event.text };
    if (event.calls.length === 0) return { text: event.text ?? '' };
    return { calls: event.calls.filter((call) => call.verdict !== undefined).map(traceCall) };
  });
  return { ...(description === undefined ? {} : { description }), tools: [...tools], events: traceEvents };
}

function traceCall(call: RecordedCall): TraceCall {
  const base = { tool: call.tool, args: call.args ?? {} };
  if (call.verdict === 'blocked') return base;
  const refused =
    (call.approval !== undefined && call.approval !== 'approved') ||
    (call.outcome?.code !== undefined && notRunCodes.has(call.outcome.code));
  if (refused) return { ...base, approved: false };
  if (call.outcome === undefined) return base;
  if (call.outcome.isError) return { ...base, error: true };
  return { ...base, result: parseResult(call.outcome.content) };
}

/** A result as the tool returned it: JSON when the text parses as JSON, the text otherwise. */
function parseResult(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
