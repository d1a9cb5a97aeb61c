import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import { setUpTracing } from './tracing-options';
import type { TracingOptions } from './tracing-options';

/**
 * The worker options that trace sessions with Temporal's OpenTelemetry interceptors: activity spans
 * (`RunActivity:*`) under the workflow's `StartActivity:*`, workflow spans (produced in the sandbox
 * by the interceptors bundled with the workflows, see `bundleTracedSessionWorkflows`) exported
 * through the `exporter` sink, and the spans of the worker's own client calls.
 */
export function workerTracingOptions(tracing: TracingOptions): Required<Pick<WorkerOptions, 'interceptors' | 'sinks'>> {
  const { tracer, resource } = setUpTracing(tracing);
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
      client: { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer })] },
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, resource) },
  };
}
