/**
 * A browser watches a session live: a plain Node `http` server (no framework) whose route
 * `GET /sessions/:id/stream` streams the session's feed as Server-Sent Events in the AI SDK's UI
 * message stream format (what `useChat` and `readUIMessageStream` read), and whose page
 * (`live-feed.html`, served at `/`) shows it and lets a person send messages, interrupt and approve.
 *
 *   GET  /                                    the page (`?session=ID` names the session)
 *   GET  /sessions/:id/stream                 SSE from the offset after `Last-Event-ID`, or `?from=N` (default 0)
 *   POST /sessions/:id/messages               { text }: sendOrStart (starts the session on first use)
 *   POST /sessions/:id/interrupt              { message? }
 *   POST /sessions/:id/approvals/:callId      { approved, reason? }
 *
 * Every SSE message is one UI message chunk (`data: <json>`); the last chunk of each feed event
 * carries the event's offset as its SSE `id`, so a reconnecting `EventSource` resumes after it.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { uiMessageChunker } from 'toolrail/client';
import type { SendOrStartOptions, ToolrailClient } from 'toolrail/client';

/** What the server needs: the client, and how to start a session a message addresses first. */
export interface FeedServerOptions {
  toolrail: ToolrailClient;
  /** The session a first message starts (rules, model, …). */
  startOptions: Omit<SendOrStartOptions, 'sessionId' | 'text'>;
  /** Milliseconds between SSE keep-alive comments. Defaults to 15 000. */
  keepAliveMs?: number;
}

/** Headers of the AI SDK's UI message stream over SSE. */
const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** The server (not listening yet: call `listen`). */
export function createFeedServer({ toolrail, startOptions, keepAliveMs = 15_000 }: FeedServerOptions): http.Server {
  return http.createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.end();
      const { status, message } = failureOf(error);
      sendJson(response, status, { error: message });
    });
  });

  async function route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (request.method === 'GET' && parts.length === 0) {
      const page = await readFile(path.join(__dirname, 'live-feed.html'));
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    const [top, sessionId, action, callId] = parts;
    if (top !== 'sessions' || sessionId === undefined) return sendJson(response, 404, { error: 'not found' });
    if (request.method === 'GET' && action === 'stream' && parts.length === 3) {
      const lastEventId = request.headers['last-event-id'];
      const from = lastEventId !== undefined ? Number(lastEventId) + 1 : Number(url.searchParams.get('from') ?? 0);
      if (!Number.isSafeInteger(from) || from < 0) return sendJson(response, 400, { error: 'from must be an offset' });
      return streamSession(sessionId, from, request, response);
    }
    if (request.method !== 'POST') return sendJson(response, 404, { error: 'not found' });
    const body = await readJson(request);
    const session = toolrail.getSession(sessionId);
    if (action === 'messages' && parts.length === 3) {
      if (typeof body['text'] !== 'string') return sendJson(response, 400, { error: 'send { text }' });
      const { message } = await toolrail.sendOrStart({ ...startOptions, sessionId, text: body['text'] });
      return sendJson(response, 200, { offset: message.offset });
    }
    if (action === 'interrupt' && parts.length === 3) {
      await session.interrupt(typeof body['message'] === 'string' ? body['message'] : undefined);
      return sendJson(response, 200, { interrupted: true });
    }
    if (action === 'approvals' && callId !== undefined && parts.length === 4) {
      const reason = typeof body['reason'] === 'string' ? body['reason'] : undefined;
      if (body['approved'] === false) await session.deny(callId, reason);
      else await session.approve(callId, reason);
      return sendJson(response, 200, { callId, approved: body['approved'] !== false });
    }
    return sendJson(response, 404, { error: 'not found' });
  }

  /** The session's feed from `from` on, as SSE, until the session ends or the browser goes away. */
  async function streamSession(
    sessionId: string,
    from: number,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const session = toolrail.getSession(sessionId);
    const gone = new AbortController();
    request.once('close', () => gone.abort());
    const events = session.events({ from, signal: gone.signal })[Symbol.asyncIterator]();
    // The first event (or the session's absence) decides the answer's status.
    let first: IteratorResult<unknown>;
    try {
      first = await events.next();
    } catch (error) {
      return sendJson(response, 404, { error: error instanceof Error ? error.message : String(error) });
    }
    response.writeHead(200, sseHeaders);
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), keepAliveMs);
    const chunksOf = uiMessageChunker({ sessionId, readText: (ref) => session.readText(ref) });
    try {
      for (let step = first; step.done !== true; step = await events.next()) {
        const event = step.value as Parameters<typeof chunksOf>[0];
        const chunks = await chunksOf(event);
        response.write(
          chunks
            .map(
              (chunk, index) =>
                `${index === chunks.length - 1 ? `id: ${event.offset}\n` : ''}data: ${JSON.stringify(chunk)}\n\n`,
            )
            .join(''),
        );
      }
      if (!gone.signal.aborted) response.write('data: [DONE]\n\n');
    } catch (error) {
      if (!gone.signal.aborted) {
        const errorText = error instanceof Error ? error.message : String(error);
        response.write(`data: ${JSON.stringify({ type: 'error', errorText })}\n\n`);
      }
    } finally {
      clearInterval(keepAlive);
      response.end();
    }
  }
}

/** The HTTP status and message of a failed request: the session's refusal (400), no session (404), an ended one (409). */
function failureOf(error: unknown): { status: number; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof WorkflowUpdateFailedError)
    return { status: 400, message: error.cause instanceof Error ? error.cause.message : message };
  if (error instanceof SyntaxError || error instanceof BadRequest) return { status: 400, message };
  if (error instanceof WorkflowNotFoundError) return { status: 404, message };
  if (error instanceof WorkflowExecutionAlreadyStartedError) return { status: 409, message: 'this session has ended' };
  return { status: 500, message };
}

/** A request the server cannot take (its body). */
class BadRequest extends Error {}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The request's JSON object body (at most 1 MiB); `{}` when it has none. */
async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 1_048_576) throw new BadRequest('the request body is over 1 MiB');
  }
  if (text.trim() === '') return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest('send a JSON object');
  return value as Record<string, unknown>;
}
