import { endRun as endRuleRun } from '../../src/rules';
import { continueAsNewIfDue } from './continue-as-new-if-due';
import { publishSessionState } from './publish-session-state';
import type { RunEndReason } from './run-turn';
import { runTurn } from './run-turn';
import { traceTurn } from '../session-tracing';
import type { SessionContext } from './session-context';

/**
 * Takes turns until the run ends: a text answer the rules accept, a terminal tool, the turn limit,
 * no tool allowed, a model failure, an interrupt, or a new user message (which starts the next run
 * once the running tools are done).
 */
export async function runAgentLoop(context: SessionContext): Promise<void> {
  for (;;) {
    if (context.turnsInRun >= context.limits.maxTurnsPerRun) {
      endRun(context, 'turn_limit', `${context.limits.maxTurnsPerRun} model calls in this run`);
      return;
    }
    if (context.turnsInRun > 0 && context.queuedMessages.length > 0) {
      endRun(context, 'new_message');
      return;
    }
    await continueAsNewIfDue(context);
    const end = await traceTurn(context, () => runTurn(context));
    if (end) {
      endRun(context, end.reason, end.detail);
      return;
    }
  }
}

/** How the rule engine records the run ends it knows of; the others (interrupt, new message, model failure) leave the state to the next run's start. */
const engineRunEnds: Partial<Record<RunEndReason, 'answered' | 'turn_limit' | 'no_tool_allowed'>> = {
  text: 'answered',
  turn_limit: 'turn_limit',
  no_tool_allowed: 'no_tool_allowed',
};

function endRun(context: SessionContext, reason: RunEndReason, detail?: string): void {
  const engineEnd = engineRunEnds[reason];
  if (engineEnd !== undefined) context.ruleState = endRuleRun(context.ruleState, engineEnd);
  context.runInProgress = false;
  context.turnsInRun = 0;
  context.interrupt = undefined;
  context.lastRunEnd = reason;
  context.note({ kind: 'run-end', reason, ...(detail === undefined ? {} : { detail }) });
  context.status = 'idle';
  publishSessionState(context);
}
