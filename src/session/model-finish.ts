import type { ModelFinishReason } from '../models';
import type { ModelSettings } from '../model-settings';
import type { RunEndReason } from './session-status';

/** What a session does with a model response, by its finish reason (docs/models.md, "Finish reasons"). */
export type ModelFinishOutcome =
  /** Run the proposed calls (judged by the rules first). */
  | { kind: 'calls' }
  /** A text answer: it ends the run when the rules let it. */
  | { kind: 'answer' }
  /** Call the model again (the provider paused a long turn). */
  | { kind: 'continue' }
  /** End the run; no proposed call runs. */
  | { kind: 'end'; reason: RunEndReason };

/**
 * The outcome of a response: cut off by the output limit → the run ends `max_tokens` (a call cut
 * off is never run); refused → `refusal`; stopped by the content filter → `content_filter`; paused
 * → the model is called again; otherwise its calls run, or its text answers. A response recorded
 * before finish reasons were (`undefined`) goes by its calls.
 */
export function modelFinishOutcome(finishReason: ModelFinishReason | undefined, callCount: number): ModelFinishOutcome {
  switch (finishReason) {
    case 'length':
      return { kind: 'end', reason: 'max_tokens' };
    case 'refusal':
      return { kind: 'end', reason: 'refusal' };
    case 'content-filter':
      return { kind: 'end', reason: 'content_filter' };
    case 'pause':
      return { kind: 'continue' };
    default:
      return callCount > 0 ? { kind: 'calls' } : { kind: 'answer' };
  }
}

/** A short name of the model the settings name: the id, or `provider:model`. */
export function modelLabel(settings: ModelSettings): string {
  return 'id' in settings ? settings.id : `${settings.provider}:${settings.model}`;
}

/** What the transcript's `run-end` says when the model's own finish ended the run. */
export function modelFinishDetail(
  reason: RunEndReason,
  response: { text?: string; toolCalls: readonly { name: string }[]; rawFinishReason?: string },
): string {
  const raw = response.rawFinishReason ? ` (${response.rawFinishReason})` : '';
  const calls = response.toolCalls.length;
  const notRun =
    calls === 0
      ? ''
      : `; ${calls === 1 ? '1 proposed call was' : `${calls} proposed calls were`} not run: ${response.toolCalls.map((call) => call.name).join(', ')}`;
  switch (reason) {
    case 'max_tokens':
      return `the output limit cut the response off${raw}${notRun}`;
    case 'refusal':
      return `the model refused${raw}${response.text ? `: ${response.text.slice(0, 200)}` : ''}${notRun}`;
    case 'content_filter':
      return `the provider's content filter stopped the response${raw}${notRun}`;
    default:
      return `the model stopped${raw}${notRun}`;
  }
}
