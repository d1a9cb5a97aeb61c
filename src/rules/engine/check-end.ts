import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { builtinRuleRef } from '../rule-ref';
import type { RuleState } from '../rule-state';
import { evaluationContext } from './evaluation-context';
import { makeReason } from './make-reason';
import { splitShadow } from './split-shadow';

/** Whether a text answer may end the run now, and if not, why. */
export interface CheckEndResult {
  readonly endsRun: boolean;
  readonly reasons: Reason[];
  /**
   * When the answer ends the run: the reasons shadow rules (`enforcement: shadow`) would have refused it
   * with if they were enforced. Absent when there are none.
   */
  readonly shadowRefused?: Reason[];
}

/**
 * May a text answer end the run now? Not while the last completed tool has a `continue` rule, a
 * `child` or `parent` rule or a conditional rule (even one whose output matched no key and that has
 * no default child, as Letta forces a tool call then), or a `required_before_exit` tool has not completed in
 * the run. After `maxTurnsPerRun` turns the answer ends the run anyway, with reason `turn_limit`.
 * An already ended run gives `endsRun: true` and no reasons.
 */
export function checkEnd(rules: CompiledRuleSet, state: RuleState): CheckEndResult {
  if (state.ended !== null) return { endsRun: true, reasons: [] };
  const context = evaluationContext(rules, state);
  const { index } = context;
  const checks =
    state.last === null ? index.everyEndChecks : (index.endChecksAfter.get(state.last.tool) ?? index.everyEndChecks);
  const all: Reason[] = [];
  for (const check of checks) check.check(context, all);
  const { enforced, shadow } = splitShadow(index, all);
  if (enforced.length === 0)
    return shadow.length > 0
      ? { endsRun: true, reasons: enforced, shadowRefused: shadow }
      : { endsRun: true, reasons: enforced };
  if (state.runTurns >= rules.settings.maxTurnsPerRun) {
    const limit = makeReason(
      'turn_limit',
      builtinRuleRef('max-turns-per-run'),
      `The run reached its limit of ${rules.settings.maxTurnsPerRun} turns and ends here.`,
    );
    return { endsRun: true, reasons: [limit] };
  }
  return { endsRun: false, reasons: enforced };
}
