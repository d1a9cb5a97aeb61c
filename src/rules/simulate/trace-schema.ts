import { z } from 'zod';

/** One proposed call of a trace. */
export const traceCallSchema = z
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
export const traceEventSchemas = {
  user: z.object({ user: z.string() }).strict(),
  calls: z.object({ calls: z.array(traceCallSchema) }).strict(),
  text: z.object({ text: z.string() }).strict(),
} as const;

/** One event of a trace: a user message, one model response with calls, or a text answer. */
export const traceEventSchema = z.union([traceEventSchemas.user, traceEventSchemas.calls, traceEventSchemas.text]);

/** A recorded trace for `toolrail simulate`: the catalog and the events, in order. */
export const traceSchema = z
  .object({
    description: z.string().optional(),
    tools: z.array(z.string().min(1)),
    events: z.array(traceEventSchema),
  })
  .strict();

/** A parsed trace. */
export type Trace = z.output<typeof traceSchema>;
/** One event of a {@link Trace}. */
export type TraceEvent = z.output<typeof traceEventSchema>;
