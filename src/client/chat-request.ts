import { checkApproveToolCallInput } from '../session';
import type { ApproveToolCallInput } from '../session';
import { ChatRequestError } from './chat-request-error';

/** Most bytes of a chat request's body (UTF-8 JSON): the chat's messages as the browser holds them. */
export const maxChatRequestBytes = 8_388_608;

/** What a `DefaultChatTransport` POST asks, checked. */
export interface ChatRequest {
  chatId: string;
  trigger: 'submit-message' | 'regenerate-message';
  /** The text of the new user message, when the chat's last message is one. */
  text?: string;
  /** The approval responses of the last assistant message (`approval-responded` tool parts). */
  approvals: ApproveToolCallInput[];
  /** Calls of the last assistant message still waiting for an answer (`approval-requested`). */
  unanswered: string[];
}

/**
 * Reads and checks a chat POST: `{ id, messages, trigger, messageId? }` as `DefaultChatTransport`
 * sends it. Throws a {@link ChatRequestError} (`CHAT_BAD_REQUEST`) saying what is wrong.
 */
export async function readChatRequest(request: Request): Promise<ChatRequest> {
  const body = await readJsonBody(request);
  const { id, messages, trigger } = body;
  if (typeof id !== 'string' || id === '')
    throw bad('the body has no chat id: send { id, messages, trigger } as DefaultChatTransport does');
  if (trigger !== 'submit-message' && trigger !== 'regenerate-message')
    throw bad(`trigger must be submit-message or regenerate-message, not ${JSON.stringify(trigger)}`);
  if (trigger === 'regenerate-message')
    throw bad('a session cannot regenerate an answer: its conversation is durable; send a new message instead');
  if (!Array.isArray(messages) || messages.length === 0) throw bad('messages must be a non-empty array of UI messages');
  const parsed = messages.map((message, index) => messageAt(message, index));
  const last = parsed.at(-1);
  const assistant = parsed.findLast((message) => message.role === 'assistant');
  const approvals: ApproveToolCallInput[] = [];
  const unanswered: string[] = [];
  for (const [index, part] of (assistant?.parts ?? []).entries()) {
    if (!isToolPart(part)) continue;
    if (part.state === 'approval-requested') unanswered.push(part.toolCallId);
    if (part.state !== 'approval-responded') continue;
    const approval = part.approval as { approved?: unknown; reason?: unknown } | undefined;
    try {
      approvals.push(
        checkApproveToolCallInput({ callId: part.toolCallId, approved: approval?.approved, reason: approval?.reason }),
      );
    } catch (error) {
      throw bad(`messages[${parsed.indexOf(assistant as Parsed)}].parts[${index}]: ${(error as Error).message}`);
    }
  }
  if (last?.role === 'user') {
    const texts = last.parts.flatMap((part) =>
      part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    );
    if (last.parts.some((part) => part.type !== 'text'))
      throw bad('the new message has parts other than text: a session takes text messages only');
    return { chatId: id, trigger, text: texts.join(''), approvals, unanswered };
  }
  if (approvals.length === 0)
    throw bad('nothing to send: the last message is not a user message and answers no call waiting for approval');
  return { chatId: id, trigger, approvals, unanswered };
}

type Parsed = { role: string; parts: Record<string, unknown>[] };

function messageAt(value: unknown, index: number): Parsed {
  if (typeof value !== 'object' || value === null) throw bad(`messages[${index}] is not a UI message`);
  const { role, parts } = value as { role?: unknown; parts?: unknown };
  if (role !== 'user' && role !== 'assistant' && role !== 'system')
    throw bad(`messages[${index}].role must be user, assistant or system`);
  if (!Array.isArray(parts) || parts.some((part) => typeof part !== 'object' || part === null || Array.isArray(part)))
    throw bad(`messages[${index}].parts must be an array of parts`);
  return { role, parts: parts as Record<string, unknown>[] };
}

function isToolPart(
  part: Record<string, unknown>,
): part is { type: string; toolCallId: string; state: string; approval?: unknown } {
  const { type, toolCallId, state } = part;
  return (
    typeof type === 'string' &&
    (type === 'dynamic-tool' || type.startsWith('tool-')) &&
    typeof toolCallId === 'string' &&
    typeof state === 'string'
  );
}

async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxChatRequestBytes) throw bad(`the request body is over ${maxChatRequestBytes} bytes`);
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxChatRequestBytes)
    throw bad(`the request body is over ${maxChatRequestBytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('the request body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('the request body is not an object');
  return value as Record<string, unknown>;
}

function bad(message: string): ChatRequestError {
  return new ChatRequestError('CHAT_BAD_REQUEST', message);
}
