import { Connection } from '@temporalio/client';

/** Options of {@link waitForServer}. */
export interface WaitForServerOptions {
  /** Give up after this long, in ms. Defaults to 60 000. */
  timeoutMs?: number;
  /** Stop waiting early when this says the server process is gone. */
  isAlive?: () => boolean;
}

/** Polls `address` until the Temporal frontend answers, or rejects after `timeoutMs`. */
export async function waitForServer(
  address: string,
  { timeoutMs = 60_000, isAlive = () => true }: WaitForServerOptions = {},
): Promise<void> {
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
