import type { Client } from '@temporalio/client';
import type { Logger } from '@temporalio/common';
import { utf8ByteLength } from '../src/text';
import { sessionTopic } from '../src/live';
import type { LiveChannel } from '../src/live';
import { modelTextSignal } from '../src/session';

/** A piece of the model's text, as it arrives (see `onModelTextDelta`). */
export interface ModelTextDelta {
  sessionId: string;
  /** 0-based index of the model call in the session. */
  turn: number;
  /** 1-based attempt of the model activity: a retried call's text starts again. */
  attempt: number;
  delta: string;
}

/** What a model call's text stream uses of its activity: the client to signal with, and the logger. */
export interface ModelTextContext {
  client: Client;
  log: Pick<Logger, 'warn'>;
}

/** One model call attempt, whose text deltas go to the session's live feed. */
export interface ModelTextCall {
  sessionId: string;
  turn: number;
  attempt: number;
  /** Whether the call streams (`doStream`); one that does not gives its text whole as it answers. */
  streamed?: boolean;
}

/**
 * The text of one model call on its way to the feed: `push` each delta as it arrives, `end` once
 * the call has settled.
 */
export interface ModelTextStream {
  push(delta: string): void;
  /** The call settled (answered or failed): text not sent yet is dropped, the response carries it. */
  end(): void;
}

/**
 * How streamed text reaches a session's live feed: batched `modelText` signals to the session,
 * at most one every `intervalMs` per model call, each carrying the text written since the last.
 * Text still buffered when the call settles is not sent (the response that follows carries it), so
 * a call that is not streamed, whose text arrives whole at its end, sends no signal at all.
 */
export interface ModelTextFeed {
  /** The stream of one call attempt's text, signalled through the activity's client. */
  open(call: ModelTextCall, context: ModelTextContext): ModelTextStream;
}

/** Default pause between two text signals of one model call, in milliseconds. */
export const defaultTextIntervalMs = 500;

/**
 * The feed of streamed model text. Each signal adds one `WorkflowExecutionSignaled` event and one
 * workflow task to the session's history: the cost is one signal per `intervalMs` of streaming,
 * whatever the number of tokens. A signal whose delivery is in doubt is sent again unchanged
 * (`seq` lets the session keep it once); the next text waits for it.
 */
export function createModelTextFeed({
  intervalMs = defaultTextIntervalMs,
}: { intervalMs?: number } = {}): ModelTextFeed {
  return {
    open({ sessionId, turn, attempt }, { client, log }) {
      const session = client.workflow.getHandle(sessionId);
      let buffered = '';
      let seq = 0;
      let unconfirmed: { seq: number; text: string } | undefined;
      let timer: NodeJS.Timeout | undefined;
      let sending = false;
      let ended = false;
      const schedule = (): void => {
        if (!ended && timer === undefined && !sending && (buffered !== '' || unconfirmed !== undefined))
          timer = setTimeout(send, intervalMs);
      };
      const send = (): void => {
        timer = undefined;
        if (ended) return;
        if (unconfirmed === undefined) {
          seq += 1;
          unconfirmed = { seq, text: buffered };
          buffered = '';
        }
        const batch = unconfirmed;
        sending = true;
        session
          .signal(modelTextSignal, { turn, attempt, ...batch })
          .then(
            () => {
              if (unconfirmed === batch) unconfirmed = undefined;
            },
            (error: unknown) => {
              // Once the call has settled, a signal cut short with it is not missed: the answer carries the text.
              if (ended) return;
              log.warn('[toolrail] a text signal to the session failed; it is sent again', {
                sessionId,
                turn,
                error: error instanceof Error ? error.message : String(error),
              });
            },
          )
          .finally(() => {
            sending = false;
            schedule();
          });
      };
      return {
        push(delta) {
          if (ended || delta === '') return;
          buffered += delta;
          schedule();
        },
        end() {
          ended = true;
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
        },
      };
    },
  };
}

/**
 * The feed of streamed model text through a live channel: each delta is published to the session's
 * watchers as it arrives (pieces too large for one message in several), numbered per call attempt.
 * Nothing goes to the session: its history keeps the text once, in the answer. Watchers that were
 * not listening read the answer whole.
 */
export function createLiveTextFeed(channel: LiveChannel, namespace: string): ModelTextFeed {
  return {
    open({ sessionId, turn, attempt, streamed = true }) {
      // A call that does not stream gives its text whole as it answers: the answer carries it.
      if (!streamed) return { push: () => undefined, end: () => undefined };
      const topic = sessionTopic(namespace, sessionId);
      // Room for the text in one message: the channel's limit less the message around it (JSON may
      // escape a character into 6 bytes, so the text's own bytes are counted at that rate).
      const room = Math.floor((channel.maxMessageBytes - utf8ByteLength(topic) - 160) / 6);
      let seq = 0;
      let ended = false;
      return {
        push(delta) {
          if (ended || delta === '') return;
          for (const text of piecesOf(delta, room))
            channel.publish({ kind: 'text', topic, turn, attempt, seq: (seq += 1), text, at: Date.now() });
        },
        end() {
          ended = true;
        },
      };
    },
  };
}

/** `text` in pieces of at most `maxChars` UTF-16 units each, never splitting a character. */
function piecesOf(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let piece = '';
  for (const character of text) {
    if (piece.length + character.length > maxChars) {
      pieces.push(piece);
      piece = '';
    }
    piece += character;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/**
 * The text hooks of one model call attempt: the worker's `onModelTextDelta` (guarded: a hook that
 * throws is logged and never fails the call) and the live feed. `onTextDelta` is undefined when
 * neither is set; call `end` once the call has settled, whatever its outcome.
 */
export function modelTextHooks(
  call: ModelTextCall,
  { onModelTextDelta, textFeed }: { onModelTextDelta?: (delta: ModelTextDelta) => void; textFeed?: ModelTextFeed },
  context: () => ModelTextContext,
): { onTextDelta?: (delta: string) => void; end(): void } {
  const activity = context();
  const stream = textFeed?.open(call, activity);
  if (onModelTextDelta === undefined && stream === undefined) return { end: () => undefined };
  const { streamed: _streamed, ...where } = call;
  return {
    onTextDelta: (delta) => {
      stream?.push(delta);
      if (onModelTextDelta === undefined) return;
      try {
        onModelTextDelta({ ...where, delta });
      } catch (error) {
        activity.log.warn('[toolrail] onModelTextDelta threw; the model call goes on', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
    end: () => stream?.end(),
  };
}
