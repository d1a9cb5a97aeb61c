import { context } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { AsyncLocalContextManager } from './async-local-context-manager';

/** An OpenTelemetry resource (`@opentelemetry/resources`), as Temporal's workflow span exporter takes it. */
export type TraceResource = Parameters<typeof makeWorkflowExporter>[1];

/**
 * Turns on OpenTelemetry tracing of sessions (off when absent), for `createWorker` and
 * `ToolrailClient`. If the process has no OpenTelemetry setup of its own, toolrail registers an
 * `AsyncLocalStorage` context manager, W3C trace-context propagation and its tracer provider
 * globally (spans find their parents across the client, the workflow and the activities through
 * them); an existing registration is kept.
 */
export interface TracingOptions {
  /** Receives every finished span, e.g. `new BatchSpanProcessor(new OTLPTraceExporter())`. */
  spanProcessor: SpanProcessor;
  /** The spans' resource (service name and so on). Defaults to OpenTelemetry's default resource. */
  resource?: TraceResource;
}

/** What the interceptors need: the tracer (spans to `spanProcessor`) and the resource of workflow spans. */
export interface TracingSetup {
  tracer: Tracer;
  resource: TraceResource;
}

/** Builds the tracer of {@link TracingOptions}, registering context and propagation if nothing else did. */
export function setUpTracing({ spanProcessor, resource }: TracingOptions): TracingSetup {
  const provider = new BasicTracerProvider({
    spanProcessors: [spanProcessor],
    ...(resource === undefined ? {} : { resource }),
  });
  // Each global registration is refused (silently) when the process already has one.
  context.setGlobalContextManager(new AsyncLocalContextManager());
  provider.register({ contextManager: null });
  return { tracer: provider.getTracer('toolrail'), resource: provider.resource };
}
