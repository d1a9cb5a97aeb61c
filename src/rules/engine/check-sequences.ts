import type { CompiledRuleOf } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import type { EvaluationContext } from './evaluation-context';
import { sharedReason } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';
import { positionTools } from './rule-index';

/** `sequence_expected` for every unfinished `sequence` rule whose expected position does not name `tool`. */
export function checkSequences(context: EvaluationContext, tool: string, out: Reason[]): void {
  const { index, state, rules } = context;
  for (let slot = 0; slot < index.sequences.length; slot++) {
    const rule = rules.rules[index.sequences[slot] ?? 0] as CompiledRuleOf<'sequence'>;
    const position = state.sequences[slot] ?? 0;
    const expected = rule.positions[position];
    if (expected === undefined) continue;
    const names = positionTools(expected);
    if (names.includes(tool)) continue;
    out.push(
      sharedReason(context, `sequence:${slot}`, () =>
        makeReason(
          ReasonCode.sequenceExpected,
          rule,
          `Follow the sequence (step ${position + 1} of ${rule.positions.length}): call ${listText(names, 'or')} next.`,
          names.slice(0, 1),
        ),
      ),
    );
  }
}
