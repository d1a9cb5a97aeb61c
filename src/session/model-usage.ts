import type { ModelUsage } from '../models';

/** Tokens spent over several model calls (a run, or the whole session). */
export interface UsageTotals {
  /** Model calls that answered (whether or not their provider reported usage). */
  modelCalls: number;
  /** Prompt tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens read from the provider's cache. */
  cachedInputTokens: number;
  /** Output tokens spent on reasoning (where the provider said). */
  reasoningTokens: number;
}

/** The session's token totals: all of it, and its current (or last) run. */
export interface SessionUsage {
  session: UsageTotals;
  run: UsageTotals;
}

/** Totals before any model call. */
export const emptyUsageTotals: UsageTotals = {
  modelCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
};

/** Totals with one more model call, and its usage when the provider reported it. */
export function addUsage(totals: UsageTotals, usage: ModelUsage | undefined): UsageTotals {
  return {
    modelCalls: totals.modelCalls + 1,
    inputTokens: totals.inputTokens + (usage?.inputTokens ?? 0),
    outputTokens: totals.outputTokens + (usage?.outputTokens ?? 0),
    cachedInputTokens: totals.cachedInputTokens + (usage?.cachedInputTokens ?? 0),
    reasoningTokens: totals.reasoningTokens + (usage?.reasoningTokens ?? 0),
  };
}

/**
 * The session's totals after an event that moves them: a run starts (its count from zero), or a
 * model call answered (counted in its run and in the session, with its usage when reported).
 */
export function foldUsage(
  totals: SessionUsage,
  event: { type: 'run_started' } | { type: 'model_responded'; usage?: ModelUsage },
): SessionUsage {
  if (event.type === 'run_started') return { ...totals, run: emptyUsageTotals };
  return { session: addUsage(totals.session, event.usage), run: addUsage(totals.run, event.usage) };
}

/** Input plus output tokens: what the `ToolrailTotalTokens` search attribute shows. */
export function totalTokens(totals: UsageTotals): number {
  return totals.inputTokens + totals.outputTokens;
}
