import type { ModelMessage, ToolResultPart } from 'ai';

/** A call the conversation's tail answers: a human's denial, or a result the browser sent. */
export interface AnsweredCall {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
}

/** The messages after the last assistant message: what the request brings since the model last spoke. */
function tail(messages: readonly ModelMessage[]): ModelMessage[] {
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  return messages.slice(last + 1);
}

/** Every tool call of the assistant messages, by call id. */
function toolCalls(messages: readonly ModelMessage[]): Map<string, AnsweredCall> {
  const calls = new Map<string, AnsweredCall>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call')
        calls.set(part.toolCallId, { callId: part.toolCallId, tool: part.toolName, args: part.input });
    }
  }
  return calls;
}

/** The text of the last message when it is a user's: a new user message, which starts a run. */
export function newUserMessage(messages: readonly ModelMessage[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user') return undefined;
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Whether the conversation asked a human to approve this call: the request resumes it. */
export function isResumedCall(messages: readonly ModelMessage[], callId: string): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-approval-request' && part.toolCallId === callId),
  );
}

/** The calls a human denied in the request's tail (they do not run); the policy's own refusals are not among them. */
export function deniedCalls(messages: readonly ModelMessage[]): AnsweredCall[] {
  const requests = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.isAutomatic !== true)
        requests.set(part.approvalId, part.toolCallId);
    }
  }
  const calls = toolCalls(messages);
  return tail(messages).flatMap((message) => {
    if (message.role !== 'tool') return [];
    return message.content.flatMap((part) => {
      if (part.type !== 'tool-approval-response' || part.approved) return [];
      const call = calls.get(requests.get(part.approvalId) ?? '');
      return call === undefined ? [] : [call];
    });
  });
}

/** What a tool result says happened: the output value, an error, or nothing (the call did not run). */
function outcomeOf(part: ToolResultPart): { result: unknown; error: boolean } | undefined {
  const { output } = part;
  switch (output.type) {
    case 'text':
    case 'json':
    case 'content':
      return { result: output.value, error: false };
    case 'error-text':
    case 'error-json':
      return { result: output.value, error: true };
    default:
      return undefined;
  }
}

/** The results the request's tail brings for calls of the given tools (those the browser runs), in order. */
export function clientResults(
  messages: readonly ModelMessage[],
  isClientTool: (tool: string) => boolean,
): (AnsweredCall & { result: unknown; error: boolean })[] {
  const calls = toolCalls(messages);
  return tail(messages).flatMap((message) => {
    if (message.role !== 'tool') return [];
    return message.content.flatMap((part) => {
      if (part.type !== 'tool-result' || !isClientTool(part.toolName)) return [];
      const call = calls.get(part.toolCallId);
      const outcome = outcomeOf(part);
      return call === undefined || outcome === undefined ? [] : [{ ...call, ...outcome }];
    });
  });
}
