import { ToolrailError } from '../errors';

/** The codes of {@link ChatRequestError}, with the HTTP status each answers. */
export const chatRequestStatus = {
  /** The request is not one `DefaultChatTransport` sends, or asks for what a session cannot do. */
  CHAT_BAD_REQUEST: 400,
  /** The session refused the user's message (empty, or over `limits.maxUserMessageBytes`). */
  CHAT_MESSAGE_REFUSED: 400,
  /** No session belongs to the chat id. */
  CHAT_NOT_FOUND: 404,
  /** The method is neither POST nor GET. */
  CHAT_METHOD_NOT_ALLOWED: 405,
  /** The chat's session has ended. */
  CHAT_ENDED: 409,
  /** An approval response names a call that does not wait for a human. */
  CHAT_APPROVAL_NOT_WAITING: 409,
} as const;

/** A code of {@link ChatRequestError}. */
export type ChatRequestErrorCode = keyof typeof chatRequestStatus;

/**
 * A chat request the handler cannot take: what is wrong and how to fix it, with a stable `code` and
 * the HTTP `status` it answers (the body is `{ code, message }`). Nothing was changed.
 */
export class ChatRequestError extends ToolrailError {
  static override readonly brand: symbol = Symbol.for('toolrail.error.CHAT_REQUEST');
  declare readonly code: ChatRequestErrorCode;
  /** The HTTP status of the answer. */
  readonly status: number;

  constructor(code: ChatRequestErrorCode, message: string, cause?: unknown) {
    super({ code, message, cause });
    this.status = chatRequestStatus[code];
  }
}
