import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * A recorded HTTP response, in the provider's documented format: a JSON `body`; or a `rawBody`
 * sent as it is (`""` for a response without a body); or server-sent `events`, each written as
 * `event: NAME` (when named) and `data: JSON` (a string `data` as it is, e.g. `[DONE]`). With
 * `holdAfter`, only that many events are sent and the response is then held open, as a model that
 * is still generating.
 */
export interface WireFixture {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  events?: { event?: string; data: unknown }[];
  holdAfter?: number;
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

const fixtureSchema = z.strictObject({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown().optional(),
  rawBody: z.string().optional(),
  events: z.array(z.strictObject({ event: z.string().optional(), data: z.unknown() })).optional(),
  holdAfter: z.number().int().nonnegative().optional(),
});

const fixturesDirectory = fileURLToPath(new URL('../fixtures/wire/', import.meta.url));

/** The APIs with recorded responses under `test/fixtures/wire/`. */
export type WireApi = 'openai' | 'openai-responses' | 'openai-compatible' | 'anthropic';

/** Reads `test/fixtures/wire/<api>/<name>.json`. */
export function loadWireFixture(api: WireApi, name: string): WireFixture {
  const text = readFileSync(path.join(fixturesDirectory, api, `${name}.json`), 'utf8');
  return fixtureSchema.parse(JSON.parse(text)) as WireFixture;
}

/** A local HTTP server that answers the n-th request with the n-th reply and records every request. */
export interface WireServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when a held request arrived (or a stream was held after its first events). */
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

function eventText({ event, data }: { event?: string; data: unknown }): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`;
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
      const hold = (): void => {
        response.on('close', () => heldConnectionClosed.resolve());
        held.resolve();
      };
      if (reply === HOLD) return hold();
      const fixture = reply ?? {
        status: 599,
        headers: { 'content-type': 'application/json' },
        body: { error: { message: `unexpected request #${requests.length}: no reply scripted` } },
      };
      response.writeHead(fixture.status, fixture.headers);
      if (fixture.events !== undefined) {
        const sent = fixture.events.slice(0, fixture.holdAfter ?? fixture.events.length);
        for (const event of sent) response.write(eventText(event));
        if (fixture.holdAfter !== undefined) return hold();
        return void response.end();
      }
      response.end(fixture.rawBody ?? JSON.stringify(fixture.body));
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
