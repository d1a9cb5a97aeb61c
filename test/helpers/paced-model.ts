import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { toolrailProviderOptionsKey } from '../../src/model-settings';

/** One turn of a {@link createPacedModel}: text streamed piece by piece, then a tool call or the end. */
export interface PacedTurn {
  /** The pieces of text, streamed one after another. */
  pieces: string[];
  /** Pause after each piece, in milliseconds. */
  gapMs: number;
  /** A call after the text (the turn's response then ends with `tool-calls`). */
  call?: { id: string; name: string; args: unknown };
}

/** A model that streams each turn's text at a steady pace, as a provider does; `sent` says when each piece left (epoch ms). */
export interface PacedModel extends LanguageModelV4 {
  /** When each piece of each call was written: `session/turn/attempt` → epoch ms per piece. */
  readonly sent: Map<string, number[]>;
}

/**
 * A `LanguageModelV4` that streams: turn N (the session's model call N, as toolrail tells the
 * model) writes `turns[N].pieces` one every `gapMs`, then calls its tool or stops. A call that runs
 * again (a retried attempt) streams from the start again. Several sessions may share it. Only `doStream`.
 */
export function createPacedModel(turns: readonly PacedTurn[]): PacedModel {
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
  const sent = new Map<string, number[]>();
  const calls = new Map<string, number>();
  return {
    specificationVersion: 'v4',
    provider: 'paced',
    modelId: 'paced',
    supportedUrls: {},
    sent,
    doGenerate: () => Promise.reject(new Error('the paced model only streams')),
    doStream: (options) => {
      const { turn, sessionId } = callOf(options);
      const script = turns[turn];
      if (script === undefined) return Promise.reject(new Error(`the paced model has no turn ${turn}`));
      const call = `${sessionId}/${turn}`;
      const attempt = (calls.get(call) ?? 0) + 1;
      calls.set(call, attempt);
      const times: number[] = [];
      sent.set(`${call}/${attempt}`, times);
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (index === 0) controller.enqueue({ type: 'text-start', id: 't' });
          const piece = script.pieces[index];
          if (piece !== undefined) {
            index += 1;
            times.push(Date.now());
            controller.enqueue({ type: 'text-delta', id: 't', delta: piece });
            await sleep(script.gapMs, undefined, { signal: options.abortSignal }).catch((error: unknown) =>
              controller.error(error),
            );
            return;
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          if (script.call)
            controller.enqueue({
              type: 'tool-call',
              toolCallId: script.call.id,
              toolName: script.call.name,
              input: JSON.stringify(script.call.args),
            });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: script.call ? 'tool-calls' : 'stop', raw: undefined },
            usage,
          });
          controller.close();
        },
      });
      return Promise.resolve({ stream });
    },
  };
}

/** The pieces of `text`: its words, each with the space after it. */
export function wordsOf(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

/** The session and its model call this is: toolrail's provider option, else the assistant messages before it. */
function callOf(options: LanguageModelV4CallOptions): { turn: number; sessionId: string } {
  const own = options.providerOptions?.[toolrailProviderOptionsKey] as
    { turn?: unknown; sessionId?: unknown } | undefined;
  const turn =
    typeof own?.turn === 'number' ? own.turn : options.prompt.filter((message) => message.role === 'assistant').length;
  return { turn, sessionId: typeof own?.sessionId === 'string' ? own.sessionId : '' };
}
