import { Client } from '@temporalio/client';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { setUpTracing } from './tracing-options';
import type { TracingOptions } from './tracing-options';

/**
 * A client like `client` (same connection, namespace, data converter and interceptors) whose
 * workflow calls are traced: `StartWorkflow:agentSession`, `SignalWorkflow:*`, `QueryWorkflow:*`…,
 * with the trace context passed to the session in the call's headers.
 */
export function tracedClient(client: Client, tracing: TracingOptions): Client {
  const { tracer } = setUpTracing(tracing);
  const { namespace, identity, dataConverter, interceptors } = client.options;
  const existing: WorkflowClientInterceptor[] = Array.isArray(interceptors.workflow) ? interceptors.workflow : [];
  return new Client({
    connection: client.connection,
    namespace,
    identity,
    dataConverter,
    interceptors: {
      ...interceptors,
      workflow: [...existing, new OpenTelemetryWorkflowClientInterceptor({ tracer })],
    },
  });
}
