import type { ModelAdapter } from '../../src/models';
import { KeyedEvents } from './keyed-events';

/** What happened to one model call, seen from inside the worker. */
export interface WatchedModelCall {
  turn: number;
  /** Whether the call's abort signal fired before it settled. */
  sawAbort: boolean;
  end?: 'answered' | 'failed';
}

/** A model adapter that records, per session turn, that a call started and whether its abort signal reached it. */
export interface WatchedModel {
  adapter: ModelAdapter;
  calls: WatchedModelCall[];
  /** Resolves when the model call of session turn `turn` (0-based) started. */
  started(turn: number): Promise<WatchedModelCall>;
  /** Resolves when the model call of session turn `turn` settled. */
  settled(turn: number): Promise<WatchedModelCall>;
}

/** Wraps `model` so a test can see its calls start, settle and get aborted. */
export function watchModel(model: ModelAdapter): WatchedModel {
  const calls: WatchedModelCall[] = [];
  const started = new KeyedEvents<WatchedModelCall>();
  const settled = new KeyedEvents<WatchedModelCall>();
  const adapter: ModelAdapter = {
    provider: model.provider,
    async complete(request, options) {
      const call: WatchedModelCall = { turn: request.turn, sawAbort: false };
      calls.push(call);
      const onAbort = (): void => {
        call.sawAbort = true;
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      started.emit(String(request.turn), call);
      try {
        const response = await model.complete(request, options);
        call.end = 'answered';
        return response;
      } catch (error) {
        call.end = 'failed';
        throw error;
      } finally {
        options.signal.removeEventListener('abort', onAbort);
        settled.emit(String(request.turn), call);
      }
    },
  };
  return {
    adapter,
    calls,
    started: (turn) => started.when(String(turn)),
    settled: (turn) => settled.when(String(turn)),
  };
}
