import { Connection } from '@temporalio/client';

/** Polls `address` until the Temporal frontend answers, or rejects after `timeoutMs` (default 60 000). */
export async function waitForServer(address: string, { timeoutMs = 60_000, isAlive = () => true } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`the Temporal dev server exited before it answered on ${address}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(
    `the Temporal dev server did not answer on ${address} within ${timeoutMs} ms: ${
      lastError instanceof Error ? lastError.message : String(lastError)
    }`,
  );
}
