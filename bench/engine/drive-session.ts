import type { CompiledRuleSet, RuleState } from '../../src/rules/index';
import { beginTurn, initialRuleState, narrow, record, startRun, validate } from '../../src/rules/index';
import { pick } from './seeded-random';

/** How many distinct `id` values calls use, so resource bindings repeat. */
const idPool = 20;

/** Arguments for a call: an `id` from a small pool. */
export function callArgs(random: () => number): { id: number } {
  return { id: 1 + Math.floor(random() * idPool) };
}

/** A call of `tool` that validates in `state`, trying every id of the pool, or `null`. */
function allowedArgs(
  rules: CompiledRuleSet,
  state: RuleState,
  catalog: readonly string[],
  tool: string,
): { id: number } | null {
  for (let id = 1; id <= idPool; id++) {
    if (validate(rules, state, { tool, args: { id } }, catalog).verdict === 'allowed') return { id };
  }
  return null;
}

/**
 * Advances a session by `calls` recorded calls, the way a model might: a random tool, validated first;
 * after a few refusals, a tool among the visible ones; when nothing can be called or the run ended, a
 * new user message starts the next run.
 */
export function driveSession(
  rules: CompiledRuleSet,
  catalog: readonly string[],
  calls: number,
  random: () => number,
  resultOf: (tool: string) => unknown = () => ({ ok: true }),
): RuleState {
  let state = startRun(rules, initialRuleState(rules), { userMessage: 'start' });
  for (let recorded = 0; recorded < calls; recorded++) {
    if (state.ended !== null || state.runTurns >= rules.settings.maxTurnsPerRun - 1) {
      state = startRun(rules, state, { userMessage: 'next' });
    }
    let tool = pick(catalog, random);
    let args: { id: number } | null = callArgs(random);
    for (
      let attempt = 0;
      attempt < 8 && validate(rules, state, { tool, args }, catalog).verdict !== 'allowed';
      attempt++
    ) {
      tool = pick(catalog, random);
      args = callArgs(random);
    }
    if (validate(rules, state, { tool, args }, catalog).verdict !== 'allowed') {
      const visible = narrow(rules, state, catalog).visible;
      args = null;
      for (let attempt = 0; attempt < 3 && args === null && visible.length > 0; attempt++) {
        tool = pick(visible, random);
        args = allowedArgs(rules, state, catalog, tool);
      }
      if (args === null) {
        state = startRun(rules, state, { userMessage: 'next' });
        continue;
      }
    }
    if (recorded % 5 === 0) state = beginTurn(rules, state);
    state = record(rules, state, { tool, args, result: resultOf(tool), error: random() < 0.05 });
  }
  return state;
}
