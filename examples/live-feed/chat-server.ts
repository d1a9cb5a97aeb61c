/**
 * A session behind `useChat`: a plain Node `http` server (no framework) that serves a chat page
 * written as the AI SDK's docs write one (`page/chat-page.tsx`: `useChat`, `DefaultChatTransport`,
 * the AI SDK's tool approvals, `stop()`, `resume`) and toolrail's chat handler at its `api`:
 *
 *   GET  /                          the page (`?chat=ID` names the chat; a reload resumes it)
 *   GET  /chat-page.js              the page's script, bundled at start
 *   POST /api/chat                  the chat's new message or approval responses → the run's UI message stream
 *   GET  /api/chat/:id/stream       the run in progress, from its start (204 when none is)
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { createChatHandler, toNodeListener } from 'toolrail/client';
import type { ChatStartOptions, ToolrailClient } from 'toolrail/client';
import { buildChatPage } from './build-page';

/** What the server needs: the client (with the workers' content store), and the sessions chats start. */
export interface ChatServerOptions {
  toolrail: ToolrailClient;
  /** The session a chat's first message starts (rules, model, …). */
  start: (chatId: string) => ChatStartOptions;
  /** See `createChatHandler`'s `reconnectWindowMs` (ms; default 3 000). */
  reconnectWindowMs?: number;
}

/** The server (not listening yet: call `listen`). */
export async function createChatServer({
  toolrail,
  start,
  reconnectWindowMs,
}: ChatServerOptions): Promise<http.Server> {
  const [page, script] = await Promise.all([readFile(path.join(__dirname, 'page', 'index.html')), buildChatPage()]);
  const chat = toNodeListener(
    createChatHandler({
      client: toolrail,
      start,
      ...(reconnectWindowMs === undefined ? {} : { reconnectWindowMs }),
    }).fetch,
  );
  return http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/api/chat' || pathname.startsWith('/api/chat/')) return void chat(request, response);
    if (request.method === 'GET' && pathname === '/')
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (request.method === 'GET' && pathname === '/chat-page.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
}
