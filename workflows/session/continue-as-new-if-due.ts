import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { SessionInput } from '../../src/session/session-input';
import type { SessionContext } from './session-context';

/**
 * At a turn or run boundary, continues the session as a new workflow run when the server suggests
 * it (history too long or too large) or after `continueAsNewAfterTurns` turns, once every handler
 * finished. Carries rule state, conversation, queued messages, counters and the run in progress,
 * so rules hold across the boundary exactly as before. Never returns when it continues.
 */
export async function continueAsNewIfDue(context: SessionContext): Promise<void> {
  const due =
    workflowInfo().continueAsNewSuggested || context.turnsThisExecution >= context.limits.continueAsNewAfterTurns;
  if (!due || context.pendingApprovals.size > 0 || context.running.size > 0) return;
  await condition(allHandlersFinished);
  const { firstMessage: _firstMessage, ...input } = context.input;
  await continueAsNew<(input: SessionInput) => Promise<unknown>>({ ...input, carried: context.carry() });
}
