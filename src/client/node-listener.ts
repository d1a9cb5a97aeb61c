import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Serves a Web-standard handler (`(request: Request) => Promise<Response>`, e.g. a chat handler's
 * `fetch`) from Node's `http` server: `http.createServer(toNodeListener(chat.fetch))`. The request's
 * `signal` aborts, and the response body is cancelled, when the client goes away first.
 */
export function toNodeListener(
  handle: (request: Request) => Promise<Response>,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (incoming, outgoing) => {
    const gone = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) gone.abort();
    });
    const method = incoming.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value === undefined) continue;
      for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
    }
    const request = new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`), {
      method,
      headers,
      signal: gone.signal,
      ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    });
    let response: Response;
    try {
      response = await handle(request);
    } catch (error) {
      outgoing
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(error instanceof Error ? error.message : String(error));
      return;
    }
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void outgoing.end();
    const reader: ReadableStreamDefaultReader<Uint8Array> = (response.body as ReadableStream<Uint8Array>).getReader();
    gone.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || gone.signal.aborted) break;
        if (!outgoing.write(value)) await once(outgoing, 'drain', { signal: gone.signal });
      }
    } catch {
      // The client went away (the reader was cancelled) or the body failed: nothing more to send.
    } finally {
      outgoing.end();
    }
  };
}
