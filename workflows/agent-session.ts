import { allHandlersFinished, condition, workflowInfo } from '@temporalio/workflow';
import { initialRuleState, startRun } from '../src/rules';
import { resolveSessionLimits } from '../src/session/session-input';
import type { CarriedSessionState, SessionCounters, SessionInput } from '../src/session/session-input';
import type { SessionStatusView } from '../src/session/session-views';
import { continueAsNewIfDue } from './session/continue-as-new-if-due';
import { installSessionHandlers } from './session/install-session-handlers';
import { publishSessionState } from './session/publish-session-state';
import { runAgentLoop } from './session/run-agent-loop';
import { SessionContext } from './session/session-context';

/**
 * One agent session. Holds the rule state, takes user messages (signals), runs each message as a
 * run of turns (model call → rules → approvals → tool batches → record), answers queries about its
 * state, and continues as new when its history grows long. Ends after `endSession`, when idle
 * past `idleTimeoutMs`, or (with `closeWhenIdle`) when a run ends with nothing queued.
 */
export async function agentSession(input: SessionInput): Promise<SessionStatusView> {
  const limits = resolveSessionLimits(input.limits, input.rules.settings.maxTurnsPerRun, input.interactive);
  const context = new SessionContext(workflowInfo().workflowId, input, limits, () => freshState(input));
  installSessionHandlers(context);
  if (input.carried === undefined && input.firstMessage !== undefined) context.queuedMessages.push(input.firstMessage);

  if (context.runInProgress) await runAgentLoop(context);
  for (;;) {
    context.status = 'idle';
    publishSessionState(context);
    if (context.queuedMessages.length === 0) {
      if (context.endRequested || (limits.closeWhenIdle && context.counters.runs > 0)) break;
      const woke = await condition(
        () => context.queuedMessages.length > 0 || context.endRequested,
        limits.idleTimeoutMs,
      );
      if (!woke || context.queuedMessages.length === 0) break;
    }
    await continueAsNewIfDue(context);
    const text = context.queuedMessages.shift() ?? '';
    context.counters.runs += 1;
    context.runInProgress = true;
    context.ruleState = startRun(context.rules, context.ruleState, { userMessage: text });
    context.conversation.push({ role: 'user', text });
    context.turnIndex = context.counters.turns;
    context.note({ kind: 'user', text });
    await runAgentLoop(context);
  }
  context.status = 'completed';
  publishSessionState(context);
  await condition(allHandlersFinished);
  return {
    status: context.status,
    lastRunEnd: context.lastRunEnd,
    lastTool: context.lastTool,
    counters: context.counters,
    queuedMessages: context.queuedMessages.length,
  };
}

function freshState(input: SessionInput): CarriedSessionState {
  const counters: SessionCounters = { turns: 0, runs: 0, toolCalls: 0, blockedCalls: 0, continuedAsNew: 0 };
  return {
    ruleState: initialRuleState(input.rules),
    conversation: [],
    queuedMessages: [],
    revealedTools: [],
    counters,
    transcript: [],
    runInProgress: false,
    turnsInRun: 0,
  };
}
