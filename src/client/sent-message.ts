import type { FeedEvent, RunEndReason, UsageTotals } from '../session';
import type { ContentRef } from '../store';
import type { SessionEventsOptions } from './session-feed';

/** How the run a message started ended, and what the model answered in it. */
export interface RunReply {
  /** The run (1-based in the session) the message started. */
  run: number;
  /** Why the run ended (`answered`: the model answered and the rules let the run end). */
  reason: RunEndReason;
  detail?: string;
  /**
   * The model's last text in the run: whole when the client has the content store (`contentStore`
   * of the `ToolrailClient`), else its first 200 characters. Absent when the model wrote none.
   */
  answer?: string;
  /** The answer's message in the content store. */
  answerRef?: ContentRef;
  /** The tokens the run's model calls used. */
  usage?: UsageTotals;
}

/** What a {@link SentMessage} needs of its session. */
export interface MessageSession {
  readonly sessionId: string;
  events(options?: SessionEventsOptions): AsyncIterable<FeedEvent>;
  /** The whole text of a stored assistant message, or `undefined` when the client has no content store. */
  readText(ref: ContentRef): Promise<string | undefined>;
}

/**
 * A user message the session accepted: where it is in the session's feed, and its reply. Each
 * message starts a run of its own (a message sent mid-run ends that run at its next turn and
 * starts the next one), so its reply is how that run ended.
 */
export class SentMessage {
  readonly sessionId: string;
  /** The feed offset of the `message_received` event that queued it. */
  readonly offset: number;
  /** Messages queued before it when it arrived. */
  readonly queuedBefore: number;
  readonly #session: MessageSession;

  constructor(session: MessageSession, { offset, queuedBefore }: { offset: number; queuedBefore: number }) {
    this.#session = session;
    this.sessionId = session.sessionId;
    this.offset = offset;
    this.queuedBefore = queuedBefore;
  }

  /**
   * Resolves when the run this message started has ended: why, and the model's answer. It follows
   * the session's live feed from the message on (no polling; across continue-as-new and worker
   * restarts). Rejects if the session ends before that run does, or when `signal` aborts.
   */
  async reply({ signal }: { signal?: AbortSignal } = {}): Promise<RunReply> {
    let run: number | undefined;
    let answer: { text: string; ref: ContentRef } | undefined;
    for await (const event of this.#session.events({ from: this.offset, ...(signal ? { signal } : {}) })) {
      if (run === undefined) {
        if (event.type === 'run_started' && event.messageOffset === this.offset) run = event.run;
        else if (event.type === 'session_ended') break;
        continue;
      }
      if (event.run !== run) continue;
      if (event.type === 'model_responded' && event.text !== undefined)
        answer = { text: event.text, ref: event.message };
      if (event.type === 'run_ended') {
        const whole = answer && (await this.#session.readText(answer.ref));
        return {
          run,
          reason: event.reason,
          ...(event.detail === undefined ? {} : { detail: event.detail }),
          ...(answer ? { answer: whole ?? answer.text, answerRef: answer.ref } : {}),
          ...(event.usage === undefined ? {} : { usage: event.usage }),
        };
      }
    }
    signal?.throwIfAborted();
    throw new Error(
      `session ${this.sessionId} ended before the run of the message at feed offset ${this.offset} ${run === undefined ? 'began' : 'ended'}`,
    );
  }
}
