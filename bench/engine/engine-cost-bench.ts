import type { CompiledRuleSet, RuleState } from '../../src/rules/index';
import { narrow, record, validate } from '../../src/rules/index';
import type { Timing } from './measure';
import { measurePair } from './measure';
import { callArgs, driveSession } from './drive-session';
import { pick, seededRandom } from './seeded-random';

/** Per-call costs of the engine on one rule set, early in a session and after a long one. */
export interface EngineCost {
  readonly validateRecord: [Timing, Timing];
  readonly narrow: [Timing, Timing];
  readonly allowedShare: [number, number];
}

/**
 * Measures validate + record and narrow on the state after `short` and after `long` prior calls of one
 * session. Both states are timed on the same 500 calls (tools drawn from the whole catalog, allowed or
 * not), in alternating batches, so the ratio isolates the effect of session length.
 */
export function engineCost(
  rules: CompiledRuleSet,
  catalog: readonly string[],
  short: number,
  long: number,
): EngineCost {
  const states: [RuleState, RuleState] = [
    driveSession(rules, catalog, short, seededRandom(11)),
    driveSession(rules, catalog, long, seededRandom(11)),
  ];
  const random = seededRandom(99);
  const calls = Array.from({ length: 500 }, () => ({ tool: pick(catalog, random), args: callArgs(random) }));
  const share = (state: RuleState) =>
    calls.filter((call) => validate(rules, state, call, catalog).verdict === 'allowed').length / calls.length;
  const step = (state: RuleState) => (i: number) => {
    const call = calls[i % calls.length] ?? calls[0];
    if (call === undefined) return;
    validate(rules, state, call, catalog);
    record(rules, state, { tool: call.tool, args: call.args, result: { ok: true }, error: false });
  };
  const narrowing = (state: RuleState) => () => narrow(rules, state, catalog);
  const big = catalog.length > 100;
  return {
    validateRecord: measurePair(step(states[0]), step(states[1]), { samples: 600, batch: 50 }),
    narrow: measurePair(narrowing(states[0]), narrowing(states[1]), { samples: big ? 150 : 600, batch: big ? 2 : 50 }),
    allowedShare: [share(states[0]), share(states[1])],
  };
}
