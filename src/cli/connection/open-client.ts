import { Client, Connection } from '@temporalio/client';
import { ToolrailClient } from '../../client/toolrail-client';
import type { ResolvedConnection } from './resolve-connection';

/** A connected toolrail client; `close()` closes its connection. */
export interface OpenClient {
  toolrail: ToolrailClient;
  connection: ResolvedConnection;
  close(): Promise<void>;
}

/** Connects a {@link ToolrailClient} with resolved settings. */
export async function openClient(connection: ResolvedConnection): Promise<OpenClient> {
  const temporal = await Connection.connect({
    address: connection.address,
    ...(connection.tls !== undefined ? { tls: connection.tls } : {}),
    ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
    ...(connection.metadata ? { metadata: connection.metadata } : {}),
    connectTimeout: 5_000,
  });
  const client = new Client({ connection: temporal, namespace: connection.namespace });
  return {
    toolrail: new ToolrailClient({ client, taskQueue: connection.taskQueue }),
    connection,
    close: () => temporal.close(),
  };
}

/** The Web UI address of one session. */
export function sessionUiUrl(connection: ResolvedConnection, sessionId: string): string {
  return `${connection.uiUrl}/namespaces/${encodeURIComponent(connection.namespace)}/workflows/${encodeURIComponent(sessionId)}`;
}
