import { Client, Connection } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';
import { ToolrailClient } from '../../client';
import type { ResolvedConnection } from './resolve-connection';
import { createExternalStorage, openContentStore } from '../../store';
import { openLiveChannel } from '../../live';

/** A connected toolrail client; `close()` closes its connection. */
export interface OpenClient {
  toolrail: ToolrailClient;
  connection: ResolvedConnection;
  close(): Promise<void>;
}

/**
 * Connects a {@link ToolrailClient} with resolved settings, the workers' payload codecs (which
 * encode what the client sends and decode what it reads, from Temporal and the content store alike)
 * and their live channel.
 */
export async function openClient(
  connection: ResolvedConnection,
  { payloadCodecs = [], live: liveSpec }: { payloadCodecs?: readonly PayloadCodec[]; live?: string | undefined } = {},
): Promise<OpenClient> {
  // The workers' live channel (`--live`, else TOOLRAIL_LIVE): the feed is followed through it.
  const live = openLiveChannel(liveSpec);
  const temporal = await Connection.connect({
    address: connection.address,
    ...(connection.tls !== undefined ? { tls: connection.tls } : {}),
    ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
    ...(connection.metadata ? { metadata: connection.metadata } : {}),
    connectTimeout: 5_000,
  });
  // The workers' content store (TOOLRAIL_CONTENT_STORE, else the embedded one): large payloads travel
  // as claims on it, and transcripts read whole messages from it.
  const contentStore = openContentStore();
  const client = new Client({
    connection: temporal,
    namespace: connection.namespace,
    dataConverter: { payloadCodecs: [...payloadCodecs], externalStorage: createExternalStorage(contentStore) },
  });
  return {
    toolrail: new ToolrailClient({ client, taskQueue: connection.taskQueue, contentStore, ...(live ? { live } : {}) }),
    connection,
    close: async () => {
      await live?.close();
      await contentStore.close();
      await temporal.close();
    },
  };
}

/** The Web UI address of one session. */
export function sessionUiUrl(connection: ResolvedConnection, sessionId: string): string {
  return `${connection.uiUrl}/namespaces/${encodeURIComponent(connection.namespace)}/workflows/${encodeURIComponent(sessionId)}`;
}
