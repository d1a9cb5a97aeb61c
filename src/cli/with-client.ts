import { ValueError } from '@temporalio/common';
import type { ConnectionFlagValues } from './connection/connection-flags';
import { codecModuleEnv, loadCodecModule } from './connection/load-codec-module';
import { openClient } from './connection/open-client';
import type { OpenClient } from './connection/open-client';
import { resolveConnection } from './connection/resolve-connection';
import { sessionCommandError } from './session-command-error';

/**
 * Connects with the command's connection flags (and the payload codecs of `--codec-module`), runs
 * `body`, and closes the connection. A payload no codec here decodes (the session's workers encode
 * with codecs this command was not given) fails with a message saying how to give them.
 */
export async function withClient<T>(flags: ConnectionFlagValues, body: (client: OpenClient) => Promise<T>): Promise<T> {
  const payloadCodecs = await loadCodecModule(flags['codec-module']);
  const client = await openClient(resolveConnection(flags), { payloadCodecs, live: flags.live });
  try {
    return await body(client);
  } catch (error) {
    throw withCodecAdvice(error, payloadCodecs.length);
  } finally {
    await client.close();
  }
}

/**
 * Runs `body` on a connected client (with the payload codecs of `--codec-module`) for a command
 * about one session; when it fails, prints one line to stderr that says why (see
 * `sessionCommandError`; a payload no codec here decodes says how to give the codecs) and resolves
 * to `undefined`.
 */
export async function withSessionClient<T>(
  command: string,
  flags: ConnectionFlagValues,
  sessionId: string,
  body: (client: OpenClient) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const payloadCodecs = await loadCodecModule(flags['codec-module']);
  const client = await openClient(resolveConnection(flags), { payloadCodecs, live: flags.live });
  try {
    return { value: await body(client) };
  } catch (error) {
    const said = await sessionCommandError(client.toolrail, sessionId, withCodecAdvice(error, payloadCodecs.length));
    process.stderr.write(`toolrail ${command}: ${said}\n`);
    return undefined;
  } finally {
    await client.close();
  }
}

/**
 * `error`, or when Temporal could not decode a payload (an unknown encoding) an error saying to
 * give the codec module.
 */
function withCodecAdvice(error: unknown, codecsGiven: number): unknown {
  const encoding = unknownEncoding(error);
  if (encoding === undefined) return error;
  return new Error(
    `the session's payloads are encoded (${encoding}) and ${codecsGiven === 0 ? 'no payload codec is given' : 'the payload codecs given leave them encoded'}: give the codec module its workers use with --codec-module FILE or ${codecModuleEnv}`,
    { cause: error },
  );
}

/** The encoding named by Temporal's "Unknown encoding" error in `error` or its causes. */
function unknownEncoding(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const match = current instanceof ValueError ? /^Unknown encoding: (.+)$/.exec(current.message) : null;
    if (match) return match[1];
  }
  return undefined;
}
