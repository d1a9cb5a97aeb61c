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
