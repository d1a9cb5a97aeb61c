/**
 * A codec server for the Temporal Web UI and the `temporal` CLI (`--codec-endpoint`), serving the
 * payload codecs of `codec-module.ts` (the ones the workers use): Temporal's codec server protocol,
 * `POST /encode` and `POST /decode` with `{ "payloads": [{ "metadata": { k: base64 }, "data": base64 }] }`.
 *
 *   CODEC_KEY=… npx tsx examples/payload-codec/codec-server.ts [--port 8888] [--ui-origin URL]...
 *
 * (`--ui-origin`: where the UI is opened; default `http://localhost:8233` and `http://127.0.0.1:8233`)
 *
 * then give the UI its address: `temporal server start-dev --ui-codec-endpoint http://localhost:8888`,
 * or the UI's Settings → Codec Server. Whoever reaches it can decrypt: keep it on localhost or behind
 * your own authentication (the UI can pass the user's access token in `Authorization`).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import type { Payload, PayloadCodec } from '@temporalio/common';

/** A payload as the codec server protocol carries it: metadata values and data in base64. */
interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

const fromJson = ({ metadata, data }: JsonPayload): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
  ),
  ...(data == null ? {} : { data: Buffer.from(data, 'base64') }),
});

const toJson = ({ metadata, data }: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(metadata ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value ?? new Uint8Array()).toString('base64'),
    ]),
  ),
  ...(data == null ? {} : { data: Buffer.from(data).toString('base64') }),
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An HTTP server that encodes and decodes payloads with `payloadCodecs` (in order on encode, in
 * reverse on decode, as Temporal does), answering the CORS preflight of a Web UI at one of `uiOrigins`.
 */
export function createCodecServer(
  payloadCodecs: readonly PayloadCodec[],
  { uiOrigins }: { uiOrigins: readonly string[] },
): Server {
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const origin = request.headers.origin;
    if (origin !== undefined && uiOrigins.includes(origin)) response.setHeader('Access-Control-Allow-Origin', origin);
    response.setHeader('Vary', 'Origin');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const route = new URL(request.url ?? '/', 'http://codec').pathname.replace(/\/$/, '');
    if (request.method !== 'POST' || (route !== '/encode' && route !== '/decode'))
      return void response.writeHead(404).end();
    void (async () => {
      try {
        const body = JSON.parse(await readBody(request)) as { payloads?: JsonPayload[] };
        let payloads = (body.payloads ?? []).map(fromJson);
        const codecs = route === '/encode' ? payloadCodecs : [...payloadCodecs].reverse();
        for (const codec of codecs)
          payloads = await (route === '/encode' ? codec.encode(payloads) : codec.decode(payloads));
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ payloads: payloads.map(toJson) }));
      } catch (error) {
        response
          .writeHead(400, { 'Content-Type': 'text/plain' })
          .end(error instanceof Error ? error.message : String(error));
      }
    })();
  });
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8888' },
      'ui-origin': { type: 'string', multiple: true, default: ['http://localhost:8233', 'http://127.0.0.1:8233'] },
    },
  });
  void import('./codec-module').then(({ payloadCodecs }) => {
    const server = createCodecServer(payloadCodecs, { uiOrigins: values['ui-origin'] });
    server.listen(Number(values.port), '127.0.0.1', () =>
      process.stdout.write(`codec server on http://127.0.0.1:${values.port} for ${values['ui-origin'].join(', ')}\n`),
    );
  });
}
