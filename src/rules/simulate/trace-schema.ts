import type { z } from 'zod';
import { zod } from '../zod-on-first-use';

/**
 * The schemas of a trace for `toolrail simulate`, built on first use: the workflow bundle holds this
 * module (through the rules' entry), and zod loaded when it is evaluated would cost every worker
 * that never reads a trace.
 */
export function traceSchemas(): TraceSchemas {
  return (built ??= buildTraceSchemas());
}

type TraceSchemas = ReturnType<typeof buildTraceSchemas>;
let built: TraceSchemas | undefined;

function buildTraceSchemas() {
  const z = zod();
  /** One proposed call of a trace. */
  const call = z
    .object({
      tool: z.string(),
      args: z.unknown().optional(),
      /** What the tool returned, if it was allowed to run. */
      result: z.unknown().optional(),
      /** The tool ran and failed. */
      error: z.boolean().optional(),
      /** For a tool that needs approval: `false` when the human refused. Defaults to approved. */
      approved: z.boolean().optional(),
    })
    .strict();
  /** The three kinds of trace event, by their key. */
  const events = {
    user: z.object({ user: z.string() }).strict(),
    calls: z.object({ calls: z.array(call) }).strict(),
    text: z.object({ text: z.string() }).strict(),
  } as const;
  /** One event of a trace: a user message, one model response with calls, or a text answer. */
  const event = z.union([events.user, events.calls, events.text]);
  /** A recorded trace: the catalog and the events, in order. */
  const trace = z
    .object({
      description: z.string().optional(),
      tools: z.array(z.string().min(1)),
      events: z.array(event),
    })
    .strict();
  return { events, event, trace };
}

/** A parsed trace. */
export type Trace = z.output<TraceSchemas['trace']>;
/** One event of a {@link Trace}. */
export type TraceEvent = z.output<TraceSchemas['event']>;
