import type { z } from 'zod';
import { appendTo } from '../append-to';
import { checkJsonPath } from '../compile/check-json-path';
import { diagnosticFor, ruleName } from '../compile/diagnostic-for';
import { isDone } from '../engine/is-done';
import { isShadow } from '../engine/is-shadow';
import { reasonOrder } from '../engine/reason-order';
import type { Recorder } from '../engine/rule-index-types';
import { isRecord } from '../formats/is-record';
import { canonicalJson } from '../paths/canonical-json';
import { resolveJsonPath } from '../paths/json-path';
import { maxBoundResources } from '../rule-state';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { CaptureTable } from './precondition/capture-table';
import { emptyCaptureTable, withCapture } from './precondition/capture-table';
import { checkPreconditions } from './precondition/check-preconditions';
import { outputConditionSchema } from './precondition/output-condition-schema';
import { describeOutputCondition, firstFailedCondition } from './precondition/output-conditions';
import type { PreconditionIndex } from './precondition/precondition-index';
import type { Positioned, RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function preconditionSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('precondition'),
      requires_prior_tool: common.toolName.optional(),
      with_output: zod.array(outputConditionSchema(zod)).optional(),
      resource: zod
        .object({ bind_from: zod.literal('arguments'), path: zod.string().min(1) })
        .strict()
        .optional(),
      requires_step_count: zod
        .object({ gte: zod.number().int().min(0) })
        .strict()
        .optional(),
    })
    .strict();
}

/**
 * A contract's `precondition` on `tool`: a completed call of `requires_prior_tool`, conditions on its
 * latest output (`with_output`), the same bound resource (`resource`), enough turns before.
 */
export type PreconditionRule = z.output<ReturnType<typeof preconditionSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    precondition: {
      rule: PreconditionRule;
      state: {
        /** Per capturing precondition: the latest verdict on its prior tool's output, per bound resource. */
        readonly captures: readonly CaptureTable[];
      };
      view: NoFields;
      reasonCode: 'precondition_not_met' | 'output_condition_failed' | 'resource_mismatch' | 'step_count_too_low';
    };
  }
}

const reasonCodes = {
  preconditionNotMet: 'precondition_not_met',
  outputConditionFailed: 'output_condition_failed',
  resourceMismatch: 'resource_mismatch',
  stepCountTooLow: 'step_count_too_low',
} as const;

type Precondition = RuleOfKind<'precondition'>;

/** Records the verdict of every rule in `rules` (preconditions whose prior tool completed) on the call. */
function captureOutputs(own: PreconditionIndex, rules: readonly Positioned<Precondition>[]): Recorder {
  return {
    record(draft, outcome, context) {
      const next = draft.captures.slice();
      const keys = new Map<string, string | null>();
      for (const { rule, position } of rules) {
        const slot = own.captureSlots.get(position);
        const table = slot === undefined ? undefined : next[slot];
        if (slot === undefined || table === undefined) continue;
        let key: string | null = null;
        if (rule.resource !== undefined) {
          const path = rule.resource.path;
          if (!keys.has(path)) {
            const bound = resolveJsonPath(outcome.args, path);
            keys.set(path, bound.found ? canonicalJson(bound.value) : null);
          }
          key = keys.get(path) ?? null;
          if (key === null) continue;
        }
        const verdict = firstFailedCondition(rule.with_output ?? [], outcome.result);
        const capture = { key, failed: verdict.failed, got: verdict.got, seq: context.previous.completed };
        next[slot] = withCapture(table, capture, maxBoundResources);
      }
      draft.captures = next;
    },
  };
}

/** `precondition`: the per-tool preconditions of contract files. */
export const preconditionKind = {
  kind: 'precondition',
  reasonCodes,
  schema: preconditionSchema,
  tools: (rule) => [
    ...toolMentions([rule.tool], 'tool'),
    ...toolMentions(rule.requires_prior_tool === undefined ? [] : [rule.requires_prior_tool], 'requires_prior_tool'),
  ],
  load: {
    fields(rule, out) {
      for (const condition of rule.with_output ?? []) {
        checkJsonPath(rule, { path: condition.path, field: 'with_output path' }, out);
      }
      if (rule.resource) checkJsonPath(rule, { path: rule.resource.path, field: 'resource path' }, out);
      if (rule.requires_prior_tool === undefined && (rule.with_output !== undefined || rule.resource !== undefined)) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'precondition-without-prior-tool',
            `${ruleName(rule)} has with_output or resource but no requires_prior_tool, so there is no output to check`,
            'add requires_prior_tool naming the tool whose output or arguments it refers to',
          ),
        );
      }
      if (rule.requires_prior_tool === undefined && rule.requires_step_count === undefined) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'empty-precondition',
            `${ruleName(rule)} has neither requires_prior_tool nor requires_step_count, so it never blocks anything`,
            'add requires_prior_tool or requires_step_count, or remove the precondition',
          ),
        );
      }
    },
    prerequisites: (rule) =>
      rule.requires_prior_tool === undefined
        ? []
        : [{ tool: rule.tool, tools: [rule.requires_prior_tool], any: false }],
    blocksAtStart: {
      order: 20,
      why(rule, tool) {
        if (rule.tool !== tool) return null;
        if (rule.requires_prior_tool !== undefined)
          return `a precondition makes it wait for ${rule.requires_prior_tool}`;
        return (rule.requires_step_count?.gte ?? 0) > 0 ? 'a precondition requires earlier turns' : null;
      },
    },
  },
  index(rules, { on }) {
    const captureSlots = new Map<number, number>();
    const byTool = new Map<string, Positioned<Precondition>[]>();
    const capturedFor = new Map<string, Positioned<Precondition>[]>();
    const own: PreconditionIndex = { captureSlots, byTool };
    const ordered = [...rules.filter(({ rule }) => !isShadow(rule)), ...rules.filter(({ rule }) => isShadow(rule))];
    for (const entry of ordered) appendTo(byTool, entry.rule.tool, entry);
    for (const entry of rules) {
      const { rule, position } = entry;
      const prior = rule.requires_prior_tool;
      if (prior === undefined) continue;
      on.trackDone(prior, { scope: 'session', position });
      on.affects(prior, rule.tool);
      on.prerequisites(rule.tool, {
        order: 20,
        position,
        shadow: isShadow(rule),
        missing: (context) => (isDone(context, prior, 'session') ? [] : [prior]),
      });
      if (rule.with_output === undefined && rule.resource === undefined) continue;
      captureSlots.set(position, captureSlots.size);
      appendTo(capturedFor, prior, entry);
    }
    for (const [tool, preconditions] of byTool) {
      on.checkTool(tool, {
        order: reasonOrder.precondition,
        position: Math.min(...preconditions.map(({ position }) => position)),
        check: (context, _tool, args, out) => checkPreconditions(context, own, { tool, preconditions, args, out }),
      });
    }
    for (const [prior, captured] of capturedFor) {
      on.readsOutput(prior);
      on.recordCompleted(prior, captureOutputs(own, captured));
    }
    return own;
  },
  initialState: (own) => ({ captures: [...own.captureSlots.keys()].map(() => emptyCaptureTable()) }),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    if (rule.requires_prior_tool === undefined) return;
    const parts = (rule.with_output ?? []).map((condition) => describeOutputCondition(condition));
    if (rule.resource) parts.push(`same ${rule.resource.path}`);
    const label = parts.length > 0 ? `precondition: ${parts.join(', ')}` : 'precondition';
    draw.edge(rule.requires_prior_tool, rule.tool, label);
    if (rule.requires_step_count) draw.note(rule.tool, `after ${rule.requires_step_count.gte} turns`);
  },
  formats: {
    contracts: [
      {
        field: 'preconditions',
        order: 10,
        map(preconditions, tool, sink) {
          if (preconditions === null) return;
          if (!Array.isArray(preconditions)) {
            sink.report(
              'error',
              'invalid-rule',
              ['preconditions'],
              '"preconditions" must be a list',
              'write preconditions: [- requires_prior_tool: ...]',
            );
            return;
          }
          preconditions.forEach((precondition: unknown, i) => {
            const at = ['preconditions', i];
            if (isRecord(precondition)) sink.add({ body: { ...precondition, kind: 'precondition', tool }, at });
            else {
              sink.report(
                'error',
                'invalid-rule',
                at,
                'a precondition must be an object',
                'write requires_prior_tool / with_output / resource / requires_step_count',
              );
            }
          });
        },
      },
    ],
  },
} satisfies RuleKindModule<'precondition', PreconditionIndex>;
