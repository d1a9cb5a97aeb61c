import { initialRuleState } from '../src/rules';
import type { CompiledRuleSet } from '../src/rules';
import { beginTurnInProgress, freshCarriedState, initialStoreState, noWorkerWaits } from '../src/session';
import type { ResolvedSessionLimits, SessionInput } from '../src/session';
import type { SessionState } from './session-state';

/** The state of a new workflow run: fresh, or what continue-as-new carried. */
export function createSessionState(
  sessionId: string,
  input: SessionInput,
  rules: CompiledRuleSet,
  limits: ResolvedSessionLimits,
): SessionState {
  const carried = input.carried ?? freshCarriedState(initialRuleState(rules));
  const resumed = carried.turn;
  return {
    sessionId,
    input,
    rules,
    limits,
    interactive: input.interactive ?? true,
    ruleState: carried.ruleState,
    log: carried.log,
    queuedMessages: carried.queuedMessages,
    revealedTools: carried.revealedTools,
    counters: carried.counters,
    run: { inProgress: carried.runInProgress, turns: carried.turnsInRun },
    turnIndex: resumed?.turnIndex ?? carried.counters.turns,
    turn: resumed && beginTurnInProgress(resumed),
    turnsThisExecution: 0,
    stepsThisExecution: 0,
    usage: carried.usage,
    status: 'idle',
    statusBeforeApproval: 'idle',
    lastRunEnd: null,
    lastTool: null,
    answer: undefined,
    catalog: { version: '', tools: [], hiddenDeferredTools: [] },
    pendingApprovals: new Map(),
    decisions: new Map(),
    running: new Map(),
    interrupt: undefined,
    endRequested: false,
    store: initialStoreState(carried.store),
    workers: noWorkerWaits,
    ...(carried.systemKey === undefined ? {} : { systemKey: carried.systemKey }),
  };
}
