import type { CompiledRuleOf } from '../compiled-rule-set';
import { canonicalJson } from '../paths/canonical-json';
import { resolveJsonPath } from '../paths/json-path';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import type { CaptureTable } from '../capture-table';
import { allCaptures, findCapture } from '../capture-table';
import type { Capture } from '../rule-state';
import { callFirst } from './call-first';
import type { EvaluationContext } from './evaluation-context';
import { anyArguments, isDone, turnsBefore } from './evaluation-context';
import { makeReason } from './make-reason';
import { describeOutputCondition } from './output-conditions';
import type { ToolRules } from './rule-index';

type Precondition = CompiledRuleOf<'precondition'>;

function table(context: EvaluationContext, rule: number): CaptureTable {
  const slot = context.index.captureSlot.get(rule);
  return (slot === undefined ? undefined : context.state.captures[slot]) ?? [];
}

function outputFailed(tool: string, rule: Precondition, capture: Capture, resource: string): Reason {
  const condition = rule.with_output?.[capture.failed];
  const prior = rule.requires_prior_tool ?? '';
  const needs = condition ? describeOutputCondition(condition) : 'its output conditions';
  return makeReason(
    ReasonCode.outputConditionFailed,
    rule,
    `${tool} needs the latest ${prior} result${resource} to have ${needs}, but it was ${capture.got}. Do not call ${tool} unless a new ${prior} call returns that.`,
  );
}

/** The resource keys (canonical JSON) for which `rule` currently holds. */
function satisfyingKeys(context: EvaluationContext, index: number): Set<string> {
  const keys = new Set<string>();
  for (const bucket of table(context, index)) {
    for (const capture of bucket) if (capture.failed < 0 && capture.key !== null) keys.add(capture.key);
  }
  return keys;
}

/**
 * Every `precondition` on `tool`: prior tool completed (`precondition_not_met`), its latest output meets
 * `with_output` (`output_condition_failed`), the same bound resource (`resource_mismatch`), enough turns
 * (`step_count_too_low`). At narrowing (`anyArguments`) a bound precondition holds if it holds for some
 * resource value, and preconditions bound to the same path must hold for one common value.
 */
export function checkPreconditions(
  context: EvaluationContext,
  tool: string,
  own: ToolRules,
  args: unknown,
  out: Reason[],
): void {
  const indices = own.preconditions;
  if (indices.length === 0) return;
  const anyKeysByPath = args === anyArguments ? new Map<string, { keys: Set<string>; rule: Precondition }>() : null;
  for (const i of indices) {
    const rule = context.rules.rules[i] as Precondition;
    const stepCount = rule.requires_step_count?.gte;
    if (stepCount !== undefined && turnsBefore(context.state) < stepCount) {
      out.push(
        makeReason(
          ReasonCode.stepCountTooLow,
          rule,
          `${tool} becomes available after ${stepCount} turns (${turnsBefore(context.state)} so far). Gather more context first.`,
        ),
      );
    }
    const prior = rule.requires_prior_tool;
    if (prior === undefined) continue;
    if (!isDone(context, prior, 'session')) {
      out.push(
        makeReason(
          ReasonCode.preconditionNotMet,
          rule,
          `Call ${prior} (successfully) before ${tool}.`,
          callFirst(context, [prior], tool),
        ),
      );
      continue;
    }
    const resource = rule.resource;
    if (resource === undefined) {
      const capture = findCapture(table(context, i), null);
      if (capture !== undefined && capture.failed >= 0) out.push(outputFailed(tool, rule, capture, ''));
      continue;
    }
    if (anyKeysByPath !== null) {
      checkAnyResource(context, tool, rule, i, anyKeysByPath, out);
      continue;
    }
    const bound = resolveJsonPath(args, resource.path);
    if (!bound.found) {
      out.push(
        makeReason(
          ReasonCode.resourceMismatch,
          rule,
          `${tool} must name ${resource.path} in its arguments, the same value as a prior ${prior} call.`,
        ),
      );
      continue;
    }
    const key = canonicalJson(bound.value);
    const capture = findCapture(table(context, i), key);
    if (capture === undefined) {
      out.push(
        makeReason(
          ReasonCode.resourceMismatch,
          rule,
          `No completed ${prior} call had ${resource.path} = ${key}. Call ${prior} for ${key} before ${tool}.`,
          [prior],
        ),
      );
    } else if (capture.failed >= 0) {
      out.push(outputFailed(tool, rule, capture, ` for ${resource.path} = ${key}`));
    }
  }
}

function checkAnyResource(
  context: EvaluationContext,
  tool: string,
  rule: Precondition,
  index: number,
  byPath: Map<string, { keys: Set<string>; rule: Precondition }>,
  out: Reason[],
): void {
  const prior = rule.requires_prior_tool ?? '';
  const path = rule.resource?.path ?? '';
  const keys = satisfyingKeys(context, index);
  if (keys.size === 0) {
    const latest = allCaptures(table(context, index)).pop();
    if (latest !== undefined && latest.failed >= 0) out.push(outputFailed(tool, rule, latest, ''));
    else {
      out.push(
        makeReason(
          ReasonCode.resourceMismatch,
          rule,
          `No completed ${prior} call named ${path} in its arguments. Call ${prior} for the item ${tool} will act on.`,
          [prior],
        ),
      );
    }
    return;
  }
  const earlier = byPath.get(path);
  if (earlier === undefined) {
    byPath.set(path, { keys, rule });
    return;
  }
  const common = new Set([...earlier.keys].filter((key) => keys.has(key)));
  if (common.size === 0) {
    out.push(
      makeReason(
        ReasonCode.resourceMismatch,
        rule,
        `No single ${path} satisfies both ${earlier.rule.requires_prior_tool ?? ''} and ${prior}. Call them for the same item before ${tool}.`,
      ),
    );
  }
  byPath.set(path, { keys: common, rule });
}
