import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** A recorded HTTP response: what the provider sent back, byte for byte in its JSON body. */
export interface WireFixture {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What the server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** Tells the server to keep the request open without answering. */
export const HOLD = Symbol('hold');

const fixtureSchema = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
});

const fixturesDirectory = fileURLToPath(new URL('../../fixtures/wire/', import.meta.url));

/** Reads `test/fixtures/wire/<provider>/<name>.json`. */
export function loadWireFixture(provider: 'openai' | 'anthropic', name: string): WireFixture {
  const text = readFileSync(path.join(fixturesDirectory, provider, `${name}.json`), 'utf8');
  const parsed = fixtureSchema.parse(JSON.parse(text));
  return { status: parsed.status, headers: parsed.headers, body: parsed.body };
}

/** A local HTTP server that answers the n-th request with the n-th reply and records every request. */
export interface WireServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when a held request arrived. */
  held: Promise<void>;
  /** Resolves when the client closed a held request's connection. */
  heldConnectionClosed: Promise<void>;
  close(): Promise<void>;
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Starts a {@link WireServer} on a free port of 127.0.0.1 that replays `replies` in order. */
export async function startWireServer(replies: (WireFixture | typeof HOLD)[]): Promise<WireServer> {
  const requests: ReceivedRequest[] = [];
  const held = signal();
  const heldConnectionClosed = signal();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      const reply = replies[requests.length - 1];
      if (reply === HOLD) {
        response.on('close', () => heldConnectionClosed.resolve());
        held.resolve();
        return;
      }
      const fixture = reply ?? {
        status: 599,
        headers: { 'content-type': 'application/json' },
        body: { error: { message: `unexpected request #${requests.length}: no reply scripted` } },
      };
      response.writeHead(fixture.status, fixture.headers);
      response.end(JSON.stringify(fixture.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the wire server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    held: held.promise,
    heldConnectionClosed: heldConnectionClosed.promise,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
