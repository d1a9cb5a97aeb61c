import { abortedModelError } from './model-errors';
import type { ModelAdapter } from './model-adapter';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import type { ModelRequest } from './model-request';
import { toModelResponse, type ScriptedResponse } from './scripted-response';

/** A step that computes its answer from the request, e.g. to react to a refused call. */
export type ScriptedResponder = (request: ModelRequest) => ScriptedResponse;

/** One entry of a script: a canned response or a step function. */
export type ScriptStep = ScriptedResponse | ScriptedResponder;

/** A {@link ModelAdapter} that answers from a script; also records what it was asked. */
export interface ScriptedModel extends ModelAdapter {
  /**
   * Every request received by this instance, in arrival order (retries included), each a deep copy.
   * For assertions only; empty when `recordRequests` is `false`.
   */
  readonly requests: readonly ModelRequest[];
  /** Number of steps in the script. */
  readonly stepCount: number;
}

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Name reported as `provider` and in error messages. Defaults to `scripted`. */
  provider?: string;
  /**
   * Keep a deep copy of every request in `requests`. Defaults to `true`; turn it off for long
   * sessions, where each request holds the conversation up to the context budget.
   */
  recordRequests?: boolean;
}

/**
 * A model that answers turn `n` of a session with step `n` of `script`. The step is chosen by
 * `request.turn`, never by a cursor, so a retried activity or a restarted worker gets the same
 * answer. A turn past the end fails loudly with a non-retryable `SCRIPT_EXHAUSTED`.
 */
export function createScriptedModel(script: readonly ScriptStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  const provider = options.provider ?? 'scripted';
  const recordRequests = options.recordRequests ?? true;
  const steps = [...script];
  const requests: ModelRequest[] = [];
  return {
    provider,
    requests,
    stepCount: steps.length,
    async complete(request, { signal, onTextDelta }) {
      if (recordRequests) requests.push(structuredClone(request));
      if (signal.aborted) throw abortedModelError(provider, signal);
      const { turn } = request;
      if (!Number.isSafeInteger(turn) || turn < 0) {
        throw new ModelError({
          code: ModelErrorCode.BAD_REQUEST,
          message: `request.turn must be a non-negative integer, got ${String(turn)}`,
          provider,
        });
      }
      const step = steps[turn];
      if (step === undefined) throw scriptExhausted(provider, turn, steps.length);
      const response = typeof step === 'function' ? step(request) : step;
      // Streamed: the text word by word, the first word at once and the delay (if any) after it.
      const words = onTextDelta && response.text ? (response.text.match(/\S+\s*|\s+/g) ?? []) : [];
      if (words[0] !== undefined) onTextDelta?.(words[0]);
      if (response.delayMs !== undefined && response.delayMs > 0) {
        await delay(response.delayMs, signal).catch((error: unknown) => {
          throw abortedModelError(provider, signal, error);
        });
      }
      for (const word of words.slice(1)) onTextDelta?.(word);
      return toModelResponse(response, turn);
    },
  };
}

/** Resolves after `ms` milliseconds (global timers, so tests can fake them), or rejects when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function scriptExhausted(provider: string, turn: number, stepCount: number): ModelError {
  const range =
    stepCount === 0
      ? 'it is empty'
      : stepCount === 1
        ? 'it has 1 response (turn 0)'
        : `it has ${stepCount} responses (turns 0 to ${stepCount - 1})`;
  return new ModelError({
    code: ModelErrorCode.SCRIPT_EXHAUSTED,
    message: `the script ran out: turn ${turn} asked for response ${turn + 1}, but ${range}`,
    provider,
  });
}
