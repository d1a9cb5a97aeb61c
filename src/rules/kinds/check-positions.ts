import type { AnyCompiledRule } from '../compiled-rule-set';
import { diagnosticFor, ruleName } from '../compile/diagnostic-for';
import { positionTools } from '../paths/position-tools';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { StaticFacts } from './static-facts';

/** A sequence's positions to check, and (for a step's sequence) what the step's own lists allow. */
export interface PositionsToCheck {
  readonly positions: readonly (string | readonly string[])[];
  readonly allows: ((tool: string) => boolean) | null;
}

/**
 * `impossible-sequence` for each position (of a `sequence` rule or a step's sequence) none of whose tools
 * could ever be called there: never callable, not in the step's lists, or blocked right after every
 * tool of the position before.
 */
export function checkPositions(
  rule: AnyCompiledRule,
  { positions, allows }: PositionsToCheck,
  context: { facts: StaticFacts; out: RuleDiagnostic[] },
): void {
  const { facts, out } = context;
  positions.forEach((position, p) => {
    const previous = p > 0 ? positionTools(positions[p - 1] ?? []) : [];
    const why = positionTools(position).map((tool) => {
      const never = facts.neverCallable(tool);
      if (never !== null) return never;
      if (allows !== null && !allows(tool)) return `${tool} is not in the step's allowed list (or is denied)`;
      const afterEach = previous.map((before) => facts.blockedRightAfter(before, tool));
      if (afterEach.length > 0 && afterEach.every((reason) => reason !== null)) return `${tool}: ${afterEach[0] ?? ''}`;
      return null;
    });
    if (!why.every((reason) => reason !== null)) return;
    out.push(
      diagnosticFor(
        rule,
        'error',
        'impossible-sequence',
        `${ruleName(rule)}: position ${p + 1} can never be reached (${why.join('; ')})`,
        'change the sequence or the rule that blocks that position',
      ),
    );
  });
}
