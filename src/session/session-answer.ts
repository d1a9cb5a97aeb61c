import type { MessageRef } from './conversation-log';

/** The model's latest text in a run: its preview (at most 200 characters) and its message in the content store. */
export interface SessionAnswer {
  text: string;
  message: MessageRef;
}
