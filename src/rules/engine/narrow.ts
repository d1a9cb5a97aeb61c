import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleState } from '../rule-state';
import { anyArguments } from './any-arguments';
import { evaluationContext } from './evaluation-context';
import { runEndedReason } from './run-ended-reason';
import { sortedCatalog } from './sorted-catalog';
import { splitShadow } from './split-shadow';
import { toolReasons } from './tool-reasons';

/** What narrowing offers the model for the next turn. */
export interface NarrowResult {
  /** Tools the model may be offered, sorted by name. */
  readonly visible: string[];
  /** Every other catalog tool, sorted by name, with why no arguments could make it allowed now. */
  readonly hidden: { tool: string; reasons: Reason[] }[];
  /** Set when the catalog is not empty but nothing is visible: the run ends (unless `onEmpty: allow-all`). */
  readonly ended?: 'no_tool_allowed';
  /**
   * Visible tools that shadow rules (`enforcement: shadow`) would hide if they were enforced, sorted by
   * name, with those rules' reasons. Absent when there are none.
   */
  readonly shadowHidden?: { tool: string; reasons: Reason[] }[];
  /** Set when enforcing the shadow rules would leave nothing visible. */
  readonly shadowEnded?: 'no_tool_allowed';
}

/** Narrowing before the rules' `onEmpty` setting is applied. */
export function narrowStrict(rules: CompiledRuleSet, state: RuleState, catalog: readonly string[]): NarrowResult {
  const context = evaluationContext(rules, state);
  const tools = sortedCatalog(catalog);
  const ended = runEndedReason(context);
  if (ended !== null) return { visible: [], hidden: tools.map((tool) => ({ tool, reasons: [ended] })) };
  const visible: string[] = [];
  const hidden: { tool: string; reasons: Reason[] }[] = [];
  const shadows = context.index.shadowRules.size > 0;
  let shadowHidden: { tool: string; reasons: Reason[] }[] | null = null;
  for (const tool of tools) {
    const reasons = toolReasons(context, tool, anyArguments);
    if (reasons.length === 0) visible.push(tool);
    else if (!shadows) hidden.push({ tool, reasons });
    else {
      const { enforced, shadow } = splitShadow(context.index, reasons);
      if (enforced.length > 0) hidden.push({ tool, reasons: enforced });
      else {
        visible.push(tool);
        (shadowHidden ??= []).push({ tool, reasons: shadow });
      }
    }
  }
  const result: NarrowResult =
    visible.length === 0 && tools.length > 0 ? { visible, hidden, ended: 'no_tool_allowed' } : { visible, hidden };
  if (shadowHidden === null) return result;
  const shadowEnded = shadowHidden.length === visible.length ? { shadowEnded: 'no_tool_allowed' as const } : {};
  return { ...result, shadowHidden, ...shadowEnded };
}

/**
 * The visible tools for the next model call: the catalog minus every tool that no arguments could make
 * allowed now. When nothing is left, `ended` is `no_tool_allowed`, unless the rules say
 * `onEmpty: allow-all`, in which case every catalog tool is offered.
 */
export function narrow(rules: CompiledRuleSet, state: RuleState, catalog: readonly string[]): NarrowResult {
  const result = narrowStrict(rules, state, catalog);
  if (result.ended === undefined || rules.settings.onEmpty !== 'allow-all') return result;
  return { visible: [...sortedCatalog(catalog)], hidden: [] };
}
