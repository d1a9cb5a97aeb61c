/** A stop that waits for its window to pass. */
interface PendingStop {
  timer: NodeJS.Timeout;
  stop: () => Promise<void>;
  cancel: () => void;
}

/** Options of {@link ChatPresence}. */
export interface ChatPresenceOptions {
  /** How long a chat whose last stream the client closed waits for the client to come back, in ms. */
  windowMs: number;
  /** Stops the chat's run: the client did not come back. */
  stop: (sessionId: string) => Promise<void>;
  /** Keeps the process alive for a pending stop (a serverless platform's `waitUntil`). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Reports a stop that failed (default: `console.error`). */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * Who follows each chat's run, so a stream the client closed becomes a stop unless the client comes
 * back: a closed tab, a reload, a dropped connection and `stop()` all look the same from here (the
 * request ends). The chat's run is stopped once `windowMs` passed without a stream of the chat
 * open again; a new stream (a `resumeStream()` after a reload) cancels the stop, and a new message
 * carries it out at once.
 */
export class ChatPresence {
  readonly #options: ChatPresenceOptions;
  readonly #chats = new Map<string, { streams: number; pending?: PendingStop }>();

  constructor(options: ChatPresenceOptions) {
    this.#options = options;
  }

  /**
   * A stream of the chat opens: a pending stop is off. Returns what to call when it closes (`gone`:
   * the client closed it).
   */
  enter(sessionId: string): (gone: boolean) => void {
    const chat = this.#chats.get(sessionId) ?? { streams: 0 };
    this.#chats.set(sessionId, chat);
    chat.pending?.cancel();
    delete chat.pending;
    chat.streams += 1;
    let left = false;
    return (gone) => {
      if (left) return;
      left = true;
      chat.streams -= 1;
      if (!gone || chat.streams > 0) return this.#forget(sessionId);
      this.#stopLater(sessionId);
    };
  }

  /** Carries out the chat's pending stop now, if it has one (its client sends a new message). */
  async settle(sessionId: string): Promise<void> {
    const pending = this.#chats.get(sessionId)?.pending;
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    await pending.stop();
  }

  #stopLater(sessionId: string): void {
    const { windowMs, stop, waitUntil, onError = (error) => console.error(error) } = this.#options;
    const chat = this.#chats.get(sessionId);
    if (chat === undefined || windowMs === Number.POSITIVE_INFINITY) return this.#forget(sessionId);
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    let ran = false;
    const run = async (): Promise<void> => {
      if (ran) return;
      ran = true;
      if (chat.pending?.stop === run) delete chat.pending;
      this.#forget(sessionId);
      try {
        await stop(sessionId);
      } catch (error) {
        onError(error);
      } finally {
        done();
      }
    };
    const timer = setTimeout(() => void run(), windowMs);
    const cancel = (): void => {
      clearTimeout(timer);
      done();
    };
    chat.pending = { timer, stop: run, cancel };
    waitUntil?.(finished);
  }

  #forget(sessionId: string): void {
    const chat = this.#chats.get(sessionId);
    if (chat && chat.streams === 0 && chat.pending === undefined) this.#chats.delete(sessionId);
  }
}
