import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import './provided-context';

/** A client and a worker connection to the harness's dev server; `close()` closes both. */
export interface HarnessConnections {
  client: Client;
  nativeConnection: NativeConnection;
  namespace: string;
  close(): Promise<void>;
}

/** Connects to the dev server the harness started for this test run. */
export async function connectToHarness(): Promise<HarnessConnections> {
  const address = inject('temporalAddress');
  const namespace = inject('temporalNamespace');
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    client: new Client({ connection, namespace }),
    nativeConnection,
    namespace,
    close: async () => {
      await nativeConnection.close();
      await connection.close();
    },
  };
}

/** A task queue / workflow id unique to one test. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
