import { pollUntil } from './poll-until';

/**
 * How many requests of `operation` (e.g. `QueryWorkflow`, `RecordActivityTaskHeartbeat`) the
 * Temporal server's frontend has received so far, read from its Prometheus metrics
 * (`service_requests`): what clients and workers sent, each once (the history service counts some
 * of them again).
 */
export async function serverRequests(metricsUrl: string, operation: string): Promise<number> {
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`the server's metrics answered ${response.status}`);
  let count = 0;
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('service_requests{')) continue;
    if (!line.includes(`operation="${operation}"`) || !line.includes('service_name="frontend"')) continue;
    count += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return count;
}

/**
 * {@link serverRequests} once the server's metrics include every request made before this call:
 * the server publishes its counters every second or so, so this sends a request of its own
 * (`GetClusterInfo`) and waits until the metrics count it.
 */
export async function settledServerRequests(
  metricsUrl: string,
  operation: string,
  client: { workflowService: { getClusterInfo(request: object): Promise<unknown> } },
): Promise<number> {
  const before = await serverRequests(metricsUrl, 'GetClusterInfo');
  await client.workflowService.getClusterInfo({});
  await pollUntil(
    () => serverRequests(metricsUrl, 'GetClusterInfo'),
    (count) => count > before,
  );
  return serverRequests(metricsUrl, operation);
}
