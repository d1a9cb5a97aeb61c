import { ApplicationFailure, allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { CompiledRuleSet } from '../src/rules';
import { resolveSessionLimits } from '../src/session';
import type { CarriedTurn, SessionInput, MessageRef, SessionStatusView } from '../src/session';
import { utf8ByteLength } from '../src/kernel';
import {
  beginRun,
  carriedState,
  continueAsNewDue,
  createSessionState,
  setStatus,
  statusView,
  storeMessages,
} from './session-state';
import type { SessionState } from './session-state';
import { installHandlers } from './session-handlers';
import { runTurns } from './turn';

/** Largest turn in progress that continue-as-new carries, in UTF-8 bytes of its JSON. */
const maxCarriedTurnBytes = 131_072;

/**
 * One agent session. Holds the rule state, takes user messages (signals), runs each message as a
 * run of turns (`turn.ts`: model call → rules → approvals → tool batches → record), answers queries
 * about its state, and continues as new when its history grows long. Ends after `endSession`, when
 * idle past `idleTimeoutMs`, or (with `closeWhenIdle`) when a run ends with nothing queued.
 */
export async function agentSession(input: SessionInput): Promise<SessionStatusView> {
  const limits = resolveSessionLimits(input.limits, input.rules.settings.maxTurnsPerRun, input.interactive);
  // The session's turn limit is the rule engine's: one limit, enforced (and explained) by the engine.
  const rules: CompiledRuleSet = {
    ...input.rules,
    settings: { ...input.rules.settings, maxTurnsPerRun: limits.maxTurnsPerRun },
  };
  const state = createSessionState(workflowInfo().workflowId, { ...input, rules }, limits);
  installHandlers(state);
  if (input.carried === undefined && input.firstMessage !== undefined) state.queuedMessages.push(input.firstMessage);

  try {
    const continueIfDue = (turn?: CarriedTurn): Promise<void> => continueAsNewIfDue(state, turn);
    if (state.run.inProgress) await runTurns(state, continueIfDue, input.carried?.turn);
    for (;;) {
      setStatus(state, 'idle');
      if (state.queuedMessages.length === 0) {
        if (state.endRequested || (limits.closeWhenIdle && state.counters.runs > 0)) break;
        const woke = await condition(() => state.queuedMessages.length > 0 || state.endRequested, limits.idleTimeoutMs);
        if (!woke || state.queuedMessages.length === 0) break;
      }
      await continueAsNewIfDue(state);
      const next = state.queuedMessages.shift();
      if (next !== undefined) await beginRun(state, next);
      await runTurns(state, continueIfDue);
    }
  } catch (error) {
    // A failure the workflow raises itself (e.g. a misconfigured model) is shown as `failed` before it surfaces.
    if (error instanceof ApplicationFailure) setStatus(state, 'failed');
    throw error;
  }
  // A session whose last run ended in a model failure did not complete what it was asked.
  setStatus(state, state.lastRunEnd === 'model_error' ? 'failed' : 'completed');
  await condition(allHandlersFinished);
  return statusView(state);
}

/**
 * Continue-as-new happens here: between runs, before each turn and between the batches of a turn,
 * when it is due (`continueAsNewDue`), once every handler has finished. Carries rule state, the
 * conversation's references, queue, counters, the run and the turn in progress (when its remaining
 * calls fit in 128 KiB; else the turn finishes in this run), so rules hold across the boundary
 * exactly as before. Never returns when it continues.
 */
async function continueAsNewIfDue(state: SessionState, turn?: CarriedTurn): Promise<void> {
  if (!continueAsNewDue(state)) return;
  if (turn !== undefined && utf8ByteLength(JSON.stringify(turn)) > maxCarriedTurnBytes) return;
  await condition(allHandlersFinished);
  await storeQueuedMessages(state);
  const { firstMessage: _firstMessage, ...input } = state.input;
  // The caller's rule set, unchanged: the limit above is derived from it again in the next run.
  const carried = { ...carriedState(state), ...(turn === undefined ? {} : { turn }) };
  await continueAsNew<typeof agentSession>({ ...input, rules: state.input.rules, carried });
}

/** Stores the queued messages that are still inline text, so continue-as-new carries references only. */
async function storeQueuedMessages(state: SessionState): Promise<void> {
  for (;;) {
    const inline = state.queuedMessages.filter((queued): queued is string => typeof queued === 'string');
    if (inline.length === 0) return;
    const refs = await storeMessages(
      state,
      inline.map((text) => ({ role: 'user', text })),
    );
    // Messages that arrived while these were stored stay inline for the next round.
    const refOf = (text: string): MessageRef | string => refs[inline.indexOf(text)] ?? text;
    state.queuedMessages = state.queuedMessages.map((queued) => (typeof queued === 'string' ? refOf(queued) : queued));
  }
}
