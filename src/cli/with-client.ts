import type { ConnectionFlagValues } from './connection/connection-flags';
import { openClient } from './connection/open-client';
import type { OpenClient } from './connection/open-client';
import { resolveConnection } from './connection/resolve-connection';
import { sessionCommandError } from './session-command-error';

/** Connects with the command's connection flags, runs `body`, and closes the connection. */
export async function withClient<T>(flags: ConnectionFlagValues, body: (client: OpenClient) => Promise<T>): Promise<T> {
  const client = await openClient(resolveConnection(flags));
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/**
 * Runs `body` on a connected client for a command about one session; when it fails, prints one line
 * to stderr that says why (see `sessionCommandError`) and resolves to `undefined`.
 */
export async function withSessionClient<T>(
  command: string,
  flags: ConnectionFlagValues,
  sessionId: string,
  body: (client: OpenClient) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const client = await openClient(resolveConnection(flags));
  try {
    return { value: await body(client) };
  } catch (error) {
    process.stderr.write(`toolrail ${command}: ${await sessionCommandError(client.toolrail, sessionId, error)}\n`);
    return undefined;
  } finally {
    await client.close();
  }
}
