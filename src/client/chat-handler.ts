import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ToolrailError } from '../errors';
import { approveToolCallUpdate, feedQuery } from '../session';
import type { ApproveToolCallInput, FeedEvent } from '../session';
import { ChatPresence } from './chat-presence';
import { readChatRequest } from './chat-request';
import { ChatRequestError } from './chat-request-error';
import type { SessionHandle } from './session-handle';
import type { SendOrStartOptions, ToolrailClient } from './toolrail-client';
import { runMessageIdOf, uiMessageChunker } from './ui-message-chunks';
import type { UIMessageChunk } from './ui-message-chunks';

/** What a chat's first message starts: the session's start options (rules, model, …). */
export type ChatStartOptions = Omit<SendOrStartOptions, 'sessionId' | 'text'>;

/** Options of {@link createChatHandler}. */
export interface ChatHandlerOptions {
  /** The client; it needs the workers' content store (`contentStore`) to send tool outputs as values. */
  client: ToolrailClient;
  /**
   * The session a chat's first message starts (`sendOrStart`), from the chat id and the request
   * (e.g. the signed-in user). Without it a message reaches only a session that exists already.
   */
  start?: (chatId: string, request: Request) => ChatStartOptions | Promise<ChatStartOptions>;
  /**
   * The session id of a chat id (default: the chat id itself). Check here that the request may use
   * the chat: a {@link ChatRequestError} it throws is the answer.
   */
  sessionIdOf?: (chatId: string, request: Request) => string | Promise<string>;
  /**
   * How long, in milliseconds, a run whose client closed its stream (`stop()`, a reload, a closed tab,
   * a dropped connection) waits for the chat to come back (`resumeStream()`, a GET) before it is
   * interrupted. Default 3 000. `0`: interrupt at once (no resuming after a reload);
   * `Infinity`: never (a run goes on without a client).
   */
  reconnectWindowMs?: number;
  /** Milliseconds between SSE keep-alive comments. Default 15 000. */
  keepAliveMs?: number;
  /** Keeps a serverless function alive for a pending interrupt (e.g. Vercel's `waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/**
 * A route handler on Web-standard `Request` / `Response`, speaking `DefaultChatTransport`'s protocol;
 * its functions need no `this` (`export const { POST, GET } = handler` in a Next.js route).
 */
export interface ChatHandler {
  /** `POST <api>`: the chat's new message or approval responses; answers with the run's UI message stream. */
  POST: (request: Request) => Promise<Response>;
  /** `GET <api>/<chatId>/stream`: the chat's run in progress from its start (204 when none is). */
  GET: (request: Request) => Promise<Response>;
  /** Either of them by the request's method (405 for others). */
  fetch: (request: Request) => Promise<Response>;
}

/** Headers of the AI SDK's UI message stream over SSE. */
const streamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Where a stream starts in the session's feed, and what it shows. */
interface StreamPlan {
  session: SessionHandle;
  /** The first offset read. */
  from: number;
  /** Show the run that the message queued at this offset starts (skipping what comes before it). */
  runOfMessage?: number;
  /** Events up to this offset are only followed: the client has their chunks (a continuation). */
  quietThrough?: number;
}

/**
 * A session behind `useChat`: a route handler that speaks the protocol of the AI SDK's
 * `DefaultChatTransport`. `POST` takes `{ id, messages, trigger, messageId }`: the chat's new user
 * message goes to the session of chat `id` (started by its first message when `start` is given),
 * approval responses in the last assistant message (`addToolApprovalResponse`) decide the calls that
 * wait, and the answer streams the run as a UI message stream (SSE), until the run ends or waits for
 * a human (the AI SDK's own approval parts; the stream finishes with `tool-calls`). `GET
 * <api>/<chatId>/stream` (`resumeStream()`) streams the run in progress from its start. A client that
 * closes its stream stops the run unless it comes back within `reconnectWindowMs`. Bad requests get
 * `{ code, message }` with a 4xx status (see {@link ChatRequestError}) and change nothing.
 */
export function createChatHandler({
  client,
  start,
  sessionIdOf = (chatId) => chatId,
  reconnectWindowMs = 3_000,
  keepAliveMs = 15_000,
  waitUntil,
}: ChatHandlerOptions): ChatHandler {
  if (client.contentStore === undefined)
    throw new ToolrailError({
      code: 'CHAT_NO_CONTENT_STORE',
      message:
        "createChatHandler needs the workers' content store to send tool outputs and answers whole: create the ToolrailClient with contentStore (openContentStore(...))",
    });
  if (!(reconnectWindowMs >= 0)) throw new RangeError(`reconnectWindowMs must be 0 or more, got ${reconnectWindowMs}`);
  const presence = new ChatPresence({
    windowMs: reconnectWindowMs,
    stop: (sessionId) => client.getSession(sessionId).interrupt(),
    waitUntil,
  });

  const POST = (request: Request): Promise<Response> =>
    answer(async () => {
      const chat = await readChatRequest(request);
      if (chat.text?.trim() === '')
        throw new ChatRequestError('CHAT_MESSAGE_REFUSED', 'the message is empty: send some text');
      const sessionId = await sessionIdOf(chat.chatId, request);
      const session = client.getSession(sessionId);
      const continued = chat.approvals.length > 0 ? await decide(session, chat.approvals) : undefined;
      if (chat.text === undefined) {
        if (continued === undefined) throw new Error('unreachable: a request without text answers approvals');
        return stream(request, { session, from: continued.runStart, quietThrough: continued.through });
      }
      // A new message ends what its client left: a stop that waits for its window, approvals it did not answer.
      await presence.settle(sessionId);
      if (chat.unanswered.length > 0) await session.interrupt();
      const { message } = start
        ? await client.sendOrStart({ ...(await start(chat.chatId, request)), sessionId, text: chat.text })
        : { message: await session.send(chat.text) };
      return stream(request, { session, from: message.offset, runOfMessage: message.offset });
    }, start !== undefined);

  const GET = (request: Request): Promise<Response> =>
    answer(async () => {
      const chatId = chatIdOfStreamUrl(request.url);
      const session = client.getSession(await sessionIdOf(chatId, request));
      const runStart = (await session.workflow.query(feedQuery, { from: 0, maxBytes: 1 })).runStart;
      if (runStart === undefined) return new Response(null, { status: 204 });
      return stream(request, { session, from: runStart });
    }, start !== undefined);

  /** The SSE answer of one stream: the plan's run as UI message chunks, until it ends or waits for a human. */
  function stream(request: Request, plan: StreamPlan): Response {
    const { session } = plan;
    const leave = presence.enter(session.sessionId);
    const stop = new AbortController();
    // The client went away before the run ended or paused: the request's signal, or the body cancelled.
    const gone = (): void => {
      if (stop.signal.aborted) return;
      stop.abort();
      leave(true);
    };
    request.signal.addEventListener('abort', gone, { once: true });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string): void => {
          if (!stop.signal.aborted) controller.enqueue(encoder.encode(text));
        };
        const keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
        followRun(plan, (chunk) => send(`data: ${JSON.stringify(chunk)}\n\n`), stop.signal)
          .catch((error: unknown) => {
            const errorText = error instanceof Error ? error.message : String(error);
            send(`data: ${JSON.stringify({ type: 'error', errorText })}\n\n`);
          })
          .finally(() => {
            clearInterval(keepAlive);
            if (stop.signal.aborted) return;
            send('data: [DONE]\n\n');
            leave(false);
            stop.abort();
            controller.close();
          });
      },
      cancel: gone,
    });
    return new Response(body, { status: 200, headers: streamHeaders });
  }

  /** Writes the chunks of the plan's run until it ends, fails, or waits for a human. */
  async function followRun(
    { session, from, runOfMessage, quietThrough }: StreamPlan,
    write: (chunk: UIMessageChunk) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const { sessionId } = session;
    const chunksOf = uiMessageChunker({
      sessionId,
      readText: (ref) => session.readText(ref),
      readToolOutput: (ref) => session.readToolOutput(ref),
    });
    let run: number | undefined;
    let started = false;
    for await (const event of session.events({ from, signal })) {
      if (run === undefined) {
        if (event.type === 'session_ended') throw new Error(`the chat's session ended before the run began`);
        if (runOfMessage !== undefined && !(event.type === 'run_started' && event.messageOffset === runOfMessage))
          continue;
        run = event.run;
      }
      if (event.type === 'session_ended' || event.run !== run) return;
      const quiet = quietThrough !== undefined && event.offset <= quietThrough;
      const chunks = await chunksOf(event, { quiet });
      if (!quiet && !started && chunks[0]?.type !== 'start')
        write({ type: 'start', messageId: runMessageIdOf(sessionId, run) });
      if (!quiet) started = true;
      for (const chunk of chunks) write(chunk);
      if (event.type === 'run_ended' || chunks.some((chunk) => chunk.type === 'error')) return;
      if (!quiet && event.type === 'approvals_requested' && (await waitsForHuman(session, event))) {
        write({ type: 'finish', finishReason: 'tool-calls' });
        return;
      }
    }
  }

  return {
    POST,
    GET,
    fetch: (request) => {
      if (request.method === 'POST') return POST(request);
      if (request.method === 'GET') return GET(request);
      return Promise.resolve(
        errorResponse(
          new ChatRequestError('CHAT_METHOD_NOT_ALLOWED', `${request.method} is not a chat request: send POST or GET`),
        ),
      );
    },
  };
}

/**
 * Decides the calls the approval responses answer, checked against the chat's run in progress:
 * a call that waits gets the session's approval update (which validates it again); a call already
 * decided the same way is left as it is (a request sent again); any other is refused, and nothing
 * is decided. Returns where the run began and the last request it answers.
 */
async function decide(
  session: SessionHandle,
  approvals: ApproveToolCallInput[],
): Promise<{ runStart: number; through: number }> {
  const page = await session.workflow.query(feedQuery, { from: 0, maxBytes: 1 });
  const notWaiting = (callIds: string[], why: string): ChatRequestError =>
    new ChatRequestError(
      'CHAT_APPROVAL_NOT_WAITING',
      `call${callIds.length > 1 ? 's' : ''} ${callIds.join(', ')} ${why}: answer only the calls the chat shows waiting (state approval-requested)`,
    );
  if (page.runStart === undefined)
    throw notWaiting(
      approvals.map(({ callId }) => callId),
      'do not wait for approval (the chat has no run in progress)',
    );
  const requested = new Map<string, number>();
  const decided = new Map<string, boolean>();
  for await (const event of session.events({ from: page.runStart })) {
    if (event.type === 'approvals_requested')
      for (const { callId } of event.approvals) {
        requested.set(callId, event.offset);
        decided.delete(callId);
      }
    if (event.type === 'approval_decided') decided.set(event.callId, event.approved);
    if (event.type === 'approvals_closed')
      for (const { callId, decision } of event.decisions)
        if (!decided.has(callId)) decided.set(callId, decision === 'approved');
    if (event.offset >= page.end - 1) break;
  }
  const unknown = approvals.filter(({ callId }) => !requested.has(callId)).map(({ callId }) => callId);
  if (unknown.length > 0) throw notWaiting(unknown, "do not wait for approval in the chat's run in progress");
  const otherwise = approvals.filter(({ callId, approved }) => decided.has(callId) && decided.get(callId) !== approved);
  if (otherwise.length > 0)
    throw notWaiting(
      otherwise.map(({ callId }) => callId),
      `were already decided (${otherwise.map(({ callId }) => `${callId}: ${decided.get(callId) ? 'approved' : 'not approved'}`).join(', ')})`,
    );
  for (const approval of approvals) {
    if (decided.has(approval.callId)) continue;
    try {
      await session.workflow.executeUpdate(approveToolCallUpdate, { args: [approval] });
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError)
        throw new ChatRequestError('CHAT_APPROVAL_NOT_WAITING', causeMessage(error), error);
      throw error;
    }
  }
  const { runStart } = page;
  return { runStart, through: Math.max(...approvals.map(({ callId }) => requested.get(callId) ?? runStart)) };
}

/** Whether the calls of an `approvals_requested` event still wait for a human now. */
async function waitsForHuman(session: SessionHandle, event: Extract<FeedEvent, { type: 'approvals_requested' }>) {
  const waiting = new Set(event.approvals.map(({ callId }) => callId));
  for (let from = event.offset + 1; ;) {
    const page = await session.workflow.query(feedQuery, { from });
    if (from < page.oldest) return false;
    for (const later of page.events) {
      if (later.type === 'approval_decided') waiting.delete(later.callId);
      if (later.type === 'approvals_closed' || later.type === 'run_ended') return false;
    }
    if (waiting.size === 0) return false;
    if (page.next >= page.end || page.events.length === 0) return true;
    from = page.next;
  }
}

/** The chat id of a `GET <api>/<chatId>/stream` URL. */
function chatIdOfStreamUrl(url: string): string {
  const match = /\/([^/]+)\/stream\/?$/.exec(new URL(url).pathname);
  if (match?.[1] === undefined)
    throw new ChatRequestError('CHAT_BAD_REQUEST', `resume at <api>/<chatId>/stream, not ${new URL(url).pathname}`);
  return decodeURIComponent(match[1]);
}

/** Runs `handle`, answering what it throws as `{ code, message }` with its HTTP status. */
async function answer(handle: () => Promise<Response>, starts: boolean): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    return errorResponse(chatErrorOf(error, starts));
  }
}

/** The chat error a failure stands for. */
function chatErrorOf(error: unknown, starts: boolean): ChatRequestError | ToolrailError | Error {
  if (ChatRequestError.isInstance(error)) return error;
  if (error instanceof WorkflowNotFoundError)
    return new ChatRequestError(
      'CHAT_NOT_FOUND',
      `no session belongs to this chat${starts ? '' : ' (give createChatHandler a start option to start one with its first message)'}`,
      error,
    );
  if (error instanceof WorkflowExecutionAlreadyStartedError || isClosedWorkflow(error))
    return new ChatRequestError('CHAT_ENDED', "the chat's session has ended: start a new chat (a new id)", error);
  if (error instanceof WorkflowUpdateFailedError)
    return new ChatRequestError('CHAT_MESSAGE_REFUSED', causeMessage(error), error);
  return error instanceof Error ? error : new Error(String(error));
}

function errorResponse(error: ChatRequestError | ToolrailError | Error): Response {
  const status = ChatRequestError.isInstance(error) ? error.status : 500;
  const code = ToolrailError.isInstance(error) ? error.code : 'CHAT_FAILED';
  return Response.json({ code, message: error.message }, { status });
}

/** Whether the server refused a call because the workflow had closed. */
function isClosedWorkflow(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
    if (/workflow execution already completed/i.test(cause.message)) return true;
  return false;
}

function causeMessage(error: WorkflowUpdateFailedError): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
