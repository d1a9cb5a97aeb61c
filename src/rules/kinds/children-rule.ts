import type { AnyCompiledRule } from '../compiled-rule-set';
import { diagnosticFor } from '../compile/diagnostic-for';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { endReasonOrder, reasonOrder } from '../engine/reason-order';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { IndexBuilder } from './index-builder';
import type { Positioned } from './rule-kind-module';
import type { StaticFacts } from './static-facts';

/** A rule that allows only its `children` right after `tool` completed: `child` or `parent`. */
export interface ChildrenRule extends AnyCompiledRule {
  readonly tool: string;
  readonly children: readonly string[];
}

/**
 * Indexes what `child` and `parent` rules share: right after `tool` completed only the children are
 * allowed (`code`), and a text answer is refused; completing `tool` or a child may change any verdict.
 */
export function indexChildren(
  { rule, position }: Positioned<ChildrenRule>,
  { on, code }: { on: IndexBuilder; code: 'child_required' | 'parent_required' },
): void {
  on.affectsAll(rule.tool);
  for (const child of rule.children) on.affectsAll(child);
  const children = listText(rule.children, 'or');
  // The reasons do not depend on the state: built once, here.
  const next = makeReason(code, rule, `After ${rule.tool}, call ${children} next.`);
  const answer = makeReason(
    code,
    rule,
    `After ${rule.tool}, call ${children} before answering.`,
    rule.children.slice(0, 1),
  );
  on.checkAfter(rule.tool, {
    order: reasonOrder.afterLast,
    position,
    check(_context, tool, _args, out) {
      if (!rule.children.includes(tool)) out.push(next);
    },
  });
  on.checkEndAfter(rule.tool, {
    order: endReasonOrder.afterLast,
    position,
    check(_context, out) {
      out.push(answer);
    },
  });
}

/** Why `tool` cannot follow `previous` under this rule (it is not among the children), or `null`. */
export function notAChild(rule: ChildrenRule, previous: string, tool: string): string | null {
  return rule.tool === previous && !rule.children.includes(tool)
    ? `only ${rule.children.join(', ')} may follow ${previous}`
    : null;
}

/**
 * `impossible-children` (once per tool, on its first `child` or `parent` rule) when the child lists of the
 * tool have no tool in common that could be called right after it.
 */
export function checkChildLists(rule: ChildrenRule, facts: StaticFacts, out: RuleDiagnostic[]): void {
  const lists: ChildrenRule[] = [...facts.rulesOn('child', rule.tool), ...facts.rulesOn('parent', rule.tool)];
  const first = Math.min(...lists.map((other) => facts.positionOf(other)));
  if (facts.positionOf(rule) !== first) return;
  const common = rule.children.filter((child) => lists.every((other) => other.children.includes(child)));
  const possible = common.filter(
    (child) => facts.neverCallable(child) === null && facts.blockedRightAfter(rule.tool, child) === null,
  );
  if (possible.length > 0) return;
  out.push(
    diagnosticFor(
      rule,
      'error',
      'impossible-children',
      common.length === 0
        ? `the child lists of ${rule.tool} have no tool in common, so nothing could follow it`
        : `none of the children of ${rule.tool} (${common.join(', ')}) can ever be called right after it`,
      `make the child lists of ${rule.tool} share an allowed tool`,
    ),
  );
}
