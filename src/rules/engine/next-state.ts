import type { RuleState } from '../rule-state';

/** Fields to change in {@link nextState}; `undefined` keeps the old value. */
export type StateChanges = { readonly [K in keyof RuleState]?: RuleState[K] };

function pick<K extends keyof RuleState>(state: RuleState, changes: StateChanges, key: K): RuleState[K] {
  const value = changes[key];
  return value === undefined ? state[key] : value;
}

/**
 * A new state from `state` with `changes`, always built with the same fields in the same order, so
 * every state the engine makes has one shape (fast property access in long sessions).
 */
export function nextState(state: RuleState, changes: StateChanges): RuleState {
  return {
    version: 1,
    run: pick(state, changes, 'run'),
    turn: pick(state, changes, 'turn'),
    runTurns: pick(state, changes, 'runTurns'),
    ended: pick(state, changes, 'ended'),
    endedBy: pick(state, changes, 'endedBy'),
    runCompleted: pick(state, changes, 'runCompleted'),
    completed: pick(state, changes, 'completed'),
    last: pick(state, changes, 'last'),
    attemptsRun: pick(state, changes, 'attemptsRun'),
    attemptsSession: pick(state, changes, 'attemptsSession'),
    doneRun: pick(state, changes, 'doneRun'),
    doneSession: pick(state, changes, 'doneSession'),
    forbidden: pick(state, changes, 'forbidden'),
    sequences: pick(state, changes, 'sequences'),
    captures: pick(state, changes, 'captures'),
    orchestrations: pick(state, changes, 'orchestrations'),
    recent: pick(state, changes, 'recent'),
  };
}
