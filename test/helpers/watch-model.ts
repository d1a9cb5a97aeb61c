import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { KeyedEvents } from './keyed-events';

/** What happened to one model call, seen from inside the worker. */
export interface WatchedModelCall {
  turn: number;
  /** Whether the call's abort signal fired before it settled. */
  sawAbort: boolean;
  end?: 'answered' | 'failed';
}

/** A language model that records, per session turn, that a call started and whether its abort signal reached it. */
export interface WatchedModel {
  model: LanguageModelV4;
  calls: WatchedModelCall[];
  /** Resolves when the model call of session turn `turn` (0-based) started. */
  started(turn: number): Promise<WatchedModelCall>;
  /** Resolves when the model call of session turn `turn` settled (for a streamed call: when its stream ended). */
  settled(turn: number): Promise<WatchedModelCall>;
}

/** The session turn a call is for: what toolrail puts in `providerOptions.toolrail.turn`. */
function turnOf(options: LanguageModelV4CallOptions): number {
  const turn = (options.providerOptions?.toolrail as { turn?: unknown } | undefined)?.turn;
  return typeof turn === 'number' ? turn : -1;
}

/** Wraps `model` so a test can see its calls start, settle and get aborted. */
export function watchModel(model: LanguageModelV4): WatchedModel {
  const calls: WatchedModelCall[] = [];
  const started = new KeyedEvents<WatchedModelCall>();
  const settled = new KeyedEvents<WatchedModelCall>();

  function begin(options: LanguageModelV4CallOptions): {
    call: WatchedModelCall;
    end: (how: 'answered' | 'failed') => void;
  } {
    const call: WatchedModelCall = { turn: turnOf(options), sawAbort: false };
    calls.push(call);
    const onAbort = (): void => {
      call.sawAbort = true;
    };
    options.abortSignal?.addEventListener('abort', onAbort, { once: true });
    started.emit(String(call.turn), call);
    return {
      call,
      end: (how) => {
        call.end = how;
        options.abortSignal?.removeEventListener('abort', onAbort);
        settled.emit(String(call.turn), call);
      },
    };
  }

  const watched: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options) {
      const { end } = begin(options);
      try {
        const result = await model.doGenerate(options);
        end('answered');
        return result;
      } catch (error) {
        end('failed');
        throw error;
      }
    },
    async doStream(options) {
      const { end } = begin(options);
      let result: Awaited<ReturnType<LanguageModelV4['doStream']>>;
      try {
        result = await model.doStream(options);
      } catch (error) {
        end('failed');
        throw error;
      }
      const reader = result.stream.getReader();
      const stream = new ReadableStream({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              end('answered');
              controller.close();
            } else controller.enqueue(value);
          } catch (error) {
            end('failed');
            controller.error(error);
          }
        },
        async cancel(reason) {
          end('failed');
          await reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
  return {
    model: watched,
    calls,
    started: (turn) => started.when(String(turn)),
    settled: (turn) => settled.when(String(turn)),
  };
}
