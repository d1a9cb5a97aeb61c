import { addUsage, modelFinishDetail, modelFinishOutcome } from '../src/session';
import type { RunEndReason, TranscriptNote } from '../src/session';
import type { ModelResponse } from '../src/models';
import type { SessionState } from './session-state';

/*
 * What a session does with a model response besides its calls: its usage joins the session's and
 * the run's totals, the transcript's model entry shows why the model stopped and what it cost, and
 * its finish reason decides the turn's outcome (see `modelFinishOutcome`).
 */

/** How the turn goes on after a response: its calls run, its text answers, the model is called again, or the run ends. */
export type ResponseOutcome =
  { kind: 'calls' } | { kind: 'answer' } | { kind: 'continue' } | { kind: 'end'; reason: RunEndReason; detail: string };

/** Counts the call and its usage in the session's and the run's totals, and says how the turn goes on. */
export function takeModelResponse(state: SessionState, response: ModelResponse): ResponseOutcome {
  const { usage } = response;
  state.usage = { session: addUsage(state.usage.session, usage), run: addUsage(state.usage.run, usage) };
  const outcome = modelFinishOutcome(response.finishReason, response.toolCalls.length);
  return outcome.kind === 'end' ? { ...outcome, detail: modelFinishDetail(outcome.reason, response) } : outcome;
}

/** The transcript's fields for why the model stopped and the tokens it used (none for a response recorded without them). */
export function responseNote(
  response: ModelResponse,
): Pick<Extract<TranscriptNote, { kind: 'model' }>, 'finishReason' | 'rawFinishReason' | 'usage'> {
  return {
    ...(response.finishReason === undefined ? {} : { finishReason: response.finishReason }),
    ...(response.rawFinishReason === undefined ? {} : { rawFinishReason: response.rawFinishReason }),
    ...(response.usage === undefined ? {} : { usage: response.usage }),
  };
}
