import type { Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';

/**
 * Resolves once `holds(chat)` is true, checking each time the AI SDK's `Chat` reports a change of its
 * messages or status (no polling); rejects with what the chat shows when `timeoutMs` passes first.
 */
export function chatUntil(
  chat: Chat<UIMessage>,
  holds: (chat: Chat<UIMessage>) => boolean,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const unsubscribe: (() => void)[] = [];
    const done = (error?: Error): void => {
      clearTimeout(timer);
      for (const each of unsubscribe) each();
      if (error) reject(error);
      else resolve();
    };
    const check = (): void => {
      if (holds(chat)) done();
    };
    const timer = setTimeout(
      () =>
        done(new Error(`the chat did not get there: status ${chat.status}, ${JSON.stringify(chat.messages.at(-1))}`)),
      timeoutMs,
    );
    unsubscribe.push(chat['~registerMessagesCallback'](check), chat['~registerStatusCallback'](check));
    check();
  });
}
