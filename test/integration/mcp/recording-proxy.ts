import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reverse proxy in front of a Streamable HTTP server that keeps every JSON-RPC message posted through it. */
export interface RecordingProxy {
  /** The proxied MCP endpoint. */
  readonly url: string;
  /** The messages posted so far, in the order they were forwarded to the server. */
  received(): Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free loopback port that forwards every request to `target` as it is (event
 * streams included) and records the bodies of POSTs, once forwarded whole: what the server received.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstreamUrl = new URL(target);
  const received: Record<string, unknown>[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    const upstream = request(
      {
        host: upstreamUrl.hostname,
        port: upstreamUrl.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstreamUrl.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end(String(error));
    });
    outgoing.on('close', () => upstream.destroy());
    incoming.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      upstream.write(chunk);
    });
    incoming.on('end', () => {
      upstream.end();
      if (incoming.method !== 'POST') return;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      received.push(...((Array.isArray(body) ? body : [body]) as Record<string, unknown>[]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstreamUrl.pathname}`,
    received: () => [...received],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
