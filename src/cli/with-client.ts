import { ValueError } from '@temporalio/common';
import type { ConnectionFlagValues } from './connection/connection-flags';
import { codecModuleEnv, loadCodecModule } from './connection/load-codec-module';
import { openClient } from './connection/open-client';
import type { OpenClient } from './connection/open-client';
import { resolveConnection } from './connection/resolve-connection';

/**
 * Connects with the command's connection flags (and the payload codecs of `--codec-module`), runs
 * `body`, and closes the connection. A payload no codec here decodes (the session's workers encode
 * with codecs this command was not given) fails with a message saying how to give them.
 */
export async function withClient<T>(flags: ConnectionFlagValues, body: (client: OpenClient) => Promise<T>): Promise<T> {
  const payloadCodecs = await loadCodecModule(flags['codec-module']);
  const client = await openClient(resolveConnection(flags), payloadCodecs);
  try {
    return await body(client);
  } catch (error) {
    const encoding = unknownEncoding(error);
    if (encoding === undefined) throw error;
    throw new Error(
      `the session's payloads are encoded (${encoding}) and ${payloadCodecs.length === 0 ? 'no payload codec is given' : 'the payload codecs given leave them encoded'}: give the codec module its workers use with --codec-module FILE or ${codecModuleEnv}`,
      { cause: error },
    );
  } finally {
    await client.close();
  }
}

/** The encoding named by Temporal's "Unknown encoding" error in `error` or its causes. */
function unknownEncoding(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const match = current instanceof ValueError ? /^Unknown encoding: (.+)$/.exec(current.message) : null;
    if (match) return match[1];
  }
  return undefined;
}
