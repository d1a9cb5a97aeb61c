/**
 * OpenTelemetry for clients and workers, and reading recorded sessions back as transcripts and
 * traces (Node side).
 * @module
 */
export { tracedClient } from './traced-client';
export { readTranscript } from './read-transcript';
export type { ReadToolContent } from './read-transcript';
export { recordedTrace } from './recorded-trace';
export type { TracingOptions } from './tracing-options';
export { workerTracingOptions } from './worker-tracing';
