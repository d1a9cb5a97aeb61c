import { callFirst } from '../../engine/call-first';
import { anyArguments } from '../../engine/any-arguments';
import { isDone } from '../../engine/is-done';
import { isShadow } from '../../engine/is-shadow';
import { makeReason } from '../../engine/make-reason';
import type { EvaluationContext } from '../../engine/rule-index-types';
import { turnsBefore } from '../../engine/turns-before';
import { canonicalJson } from '../../paths/canonical-json';
import { resolveJsonPath } from '../../paths/json-path';
import type { Reason } from '../../reason';
import type { Positioned, RuleOfKind } from '../rule-kind-module';
import type { Capture, CaptureTable } from './capture-table';
import { allCaptures, findCapture } from './capture-table';
import { describeOutputCondition } from './output-conditions';
import type { PreconditionIndex } from './precondition-index';

type Precondition = RuleOfKind<'precondition'>;

/** Per bound path at narrowing: the resource values for which every precondition so far holds. */
type KeysByPath = Map<string, { keys: Set<string>; rule: Precondition }>;

function table(context: EvaluationContext, own: PreconditionIndex, position: number): CaptureTable {
  const slot = own.captureSlots.get(position);
  return (slot === undefined ? undefined : context.state.captures[slot]) ?? [];
}

function outputFailed(tool: string, rule: Precondition, capture: Capture, resource: string): Reason {
  const condition = rule.with_output?.[capture.failed];
  const prior = rule.requires_prior_tool ?? '';
  const needs = condition ? describeOutputCondition(condition) : 'its output conditions';
  return makeReason(
    'output_condition_failed',
    rule,
    `${tool} needs the latest ${prior} result${resource} to have ${needs}, but it was ${capture.got}. Do not call ${tool} unless a new ${prior} call returns that.`,
  );
}

/** The resource keys (canonical JSON) for which a rule currently holds. */
function satisfyingKeys(captures: CaptureTable): Set<string> {
  const keys = new Set<string>();
  for (const bucket of captures) {
    for (const capture of bucket) if (capture.failed < 0 && capture.key !== null) keys.add(capture.key);
  }
  return keys;
}

/**
 * Every precondition on `tool`: prior tool completed (`precondition_not_met`), its latest output meets
 * `with_output` (`output_condition_failed`), the same bound resource (`resource_mismatch`), enough turns
 * (`step_count_too_low`). At narrowing (`anyArguments`) a bound precondition holds if it holds for some
 * resource value, and preconditions bound to the same path must hold for one common value (shadow ones
 * come last, so they also see the enforced ones' values).
 */
export function checkPreconditions(
  context: EvaluationContext,
  own: PreconditionIndex,
  check: { tool: string; preconditions: readonly Positioned<Precondition>[]; args: unknown; out: Reason[] },
): void {
  const { tool, args, out } = check;
  const anyKeysByPath: KeysByPath | null = args === anyArguments ? new Map() : null;
  for (const { rule, position } of check.preconditions) {
    const stepCount = rule.requires_step_count?.gte;
    if (stepCount !== undefined && turnsBefore(context.state) < stepCount) {
      out.push(
        makeReason(
          'step_count_too_low',
          rule,
          `${tool} becomes available after ${stepCount} turns (${turnsBefore(context.state)} so far). Gather more context first.`,
        ),
      );
    }
    const prior = rule.requires_prior_tool;
    if (prior === undefined) continue;
    if (!isDone(context, prior, 'session')) {
      const first = callFirst(context, { tools: [prior], exclude: tool, shadow: isShadow(rule) });
      out.push(makeReason('precondition_not_met', rule, `Call ${prior} (successfully) before ${tool}.`, first));
      continue;
    }
    const captures = table(context, own, position);
    const resource = rule.resource;
    if (resource === undefined) {
      const capture = findCapture(captures, null);
      if (capture !== undefined && capture.failed >= 0) out.push(outputFailed(tool, rule, capture, ''));
      continue;
    }
    if (anyKeysByPath !== null) {
      checkAnyResource({ tool, rule, captures, byPath: anyKeysByPath, out });
      continue;
    }
    const bound = resolveJsonPath(args, resource.path);
    if (!bound.found) {
      out.push(
        makeReason(
          'resource_mismatch',
          rule,
          `${tool} must name ${resource.path} in its arguments, the same value as a prior ${prior} call.`,
        ),
      );
      continue;
    }
    const key = canonicalJson(bound.value);
    const capture = findCapture(captures, key);
    if (capture === undefined) {
      out.push(
        makeReason(
          'resource_mismatch',
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

/** At narrowing: a bound precondition holds for some value, one common to the others bound to its path. */
function checkAnyResource(input: {
  tool: string;
  rule: Precondition;
  captures: CaptureTable;
  byPath: KeysByPath;
  out: Reason[];
}): void {
  const { tool, rule, captures, byPath, out } = input;
  const prior = rule.requires_prior_tool ?? '';
  const path = rule.resource?.path ?? '';
  const keys = satisfyingKeys(captures);
  if (keys.size === 0) {
    const latest = allCaptures(captures).pop();
    if (latest !== undefined && latest.failed >= 0) out.push(outputFailed(tool, rule, latest, ''));
    else {
      out.push(
        makeReason(
          'resource_mismatch',
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
        'resource_mismatch',
        rule,
        `No single ${path} satisfies both ${earlier.rule.requires_prior_tool ?? ''} and ${prior}. Call them for the same item before ${tool}.`,
      ),
    );
  }
  byPath.set(path, { keys: common, rule });
}
