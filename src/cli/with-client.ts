import type { ConnectionFlagValues } from './connection/connection-flags';
import { openClient } from './connection/open-client';
import type { OpenClient } from './connection/open-client';
import { resolveConnection } from './connection/resolve-connection';

/** Connects with the command's connection flags, runs `body`, and closes the connection. */
export async function withClient<T>(flags: ConnectionFlagValues, body: (client: OpenClient) => Promise<T>): Promise<T> {
  const client = await openClient(resolveConnection(flags));
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}
