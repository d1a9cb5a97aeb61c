import { segmentEntries } from '../src/session';
import type { MessageRef } from '../src/session';
import type { ConversationMessage } from '../src/models';
import type { Session } from './session';
import { contentWrites, sessionStoreInput } from './with-store';

// The workflow's own writes to the content store: messages, and the conversation log's tail sealed
// into segments. Local activities, whose inputs never enter the history (only the references they
// return); while the store fails, the session waits for it (`withStore`).

/** Writes messages to the content store and returns their references, in order. */
export function storeMessages(session: Session, messages: ConversationMessage[]): Promise<MessageRef[]> {
  return contentWrites(session).storeMessages({ ...sessionStoreInput(session.state), messages });
}

/**
 * Whether the log's inline tail is full: then {@link sealLog} seals it, so what the workflow holds
 * stays bounded. Apart from the sealing so that most turns make no promise for it (the SDK records a
 * stack trace for each promise a workflow makes).
 */
export function logIsFull({ log }: Session['state']): boolean {
  return log.tail.length >= segmentEntries;
}

/** Seals the log's inline tail into a segment in the content store. */
export async function sealLog(session: Session): Promise<void> {
  const { state } = session;
  const log = await contentWrites(session).sealLog({ ...sessionStoreInput(state), log: state.log });
  session.emit({ type: 'log_sealed', log });
}

/** Stores the queued messages that are still inline text, so continue-as-new carries references only. */
export async function storeQueuedMessages(session: Session): Promise<void> {
  for (;;) {
    const inline = session.state.queuedMessages.filter((queued): queued is string => typeof queued === 'string');
    if (inline.length === 0) return;
    const refs = await storeMessages(
      session,
      inline.map((text) => ({ role: 'user', text })),
    );
    // Messages that arrived while these were stored stay inline for the next round.
    session.emit({ type: 'messages_stored', stored: storedAs(inline, refs) });
  }
}

/** Queued texts and the references they were stored under, in order (what `messages_stored` says). */
export function storedAs(
  texts: readonly string[],
  refs: readonly MessageRef[],
): { text: string; message: MessageRef }[] {
  return texts.flatMap((text, index) => {
    const message = refs[index];
    return message ? [{ text, message }] : [];
  });
}
