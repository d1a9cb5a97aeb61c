import type { z } from 'zod';
import { diagnosticFor, ruleName } from '../compile/diagnostic-for';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import type { ToolCheck } from '../engine/rule-index-types';
import { positionTools } from '../paths/position-tools';
import { checkPositions } from './check-positions';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import { drawSequenceEdges } from './draw-sequence-edges';
import type { RuleKindModule, RuleOfKind } from './rule-kind-module';
import { agentDockStep } from './step/agentdock-step';
import { stepConditionTypes } from './step/step-condition-types';
import { checkStepFields } from './step/check-step-fields';
import { evaluateMessages, selectActiveSteps } from './step/select-active-steps';
import type { OrchestrationIndex, OrchestrationState, StepIndex } from './step/step-index';
import { stepListsAllow } from './step/step-lists-allow';
import type { StaticFacts } from './static-facts';
import { toolMentions } from './tool-mentions';

function stepSchema(zod: Zod, common: CommonRuleFields) {
  const condition = zod
    .object({
      type: zod.enum(stepConditionTypes),
      value: zod.string().optional(),
      description: zod.string().optional(),
    })
    .strict();
  return zod
    .object({
      ...common.base,
      kind: zod.literal('step'),
      name: zod.string().min(1),
      conditions: zod.array(condition).default([]),
      allowed: common.toolList.optional(),
      denied: common.toolList.optional(),
      sequence: zod.array(common.position).optional(),
      default: zod.boolean().default(false),
    })
    .strict();
}

/**
 * An orchestration `step` (AgentDock): while it is the active step of its file, tools outside `allowed`
 * or in `denied` are blocked, and its `sequence` (if any) is followed.
 */
export type StepRule = z.output<ReturnType<typeof stepSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    step: {
      rule: StepRule;
      state: {
        readonly orchestrations: readonly OrchestrationState[];
        /** The last completed tools, oldest first, only as many as `sequence_match` conditions need. */
        readonly recent: readonly string[];
      };
      view: {
        readonly steps: { file: string; active: string | null; position: number; expected: string[] | null }[];
      };
      reasonCode: 'not_in_step' | 'sequence_expected';
    };
  }
}

const reasonCodes = { notInStep: 'not_in_step', sequenceExpected: 'sequence_expected' } as const;

type Step = RuleOfKind<'step'>;

/** The steps of the rule's file, in order. */
function stepsOfFile(rule: Step, facts: StaticFacts): Step[] {
  return facts.rulesOf('step').filter((step) => step.ref.file === rule.ref.file);
}

/** The active step's lists (`not_in_step`) and, while unfinished, its sequence (`sequence_expected`). */
function checkActiveStep(orchestration: OrchestrationIndex, o: number): ToolCheck {
  return {
    order: reasonOrder.step,
    position: orchestration.positions[0] ?? -1,
    check(context, tool, _args, out) {
      const current = context.state.orchestrations[o];
      const step = current?.active === null || current === undefined ? undefined : orchestration.steps[current.active];
      if (current === undefined || step === undefined) return;
      if (!stepListsAllow(step, tool)) {
        const allowed = step.allowed && step.allowed.length > 0 ? ` Use ${listText(step.allowed, 'or')}.` : '';
        out.push(makeReason(reasonCodes.notInStep, step, `${tool} is not available in step "${step.name}".${allowed}`));
      }
      const expected = step.sequence?.[current.position];
      if (expected === undefined) return;
      const names = positionTools(expected);
      if (names.includes(tool)) return;
      const steps = `${current.position + 1} of ${step.sequence?.length ?? 0}`;
      const message = `Step "${step.name}" follows a sequence (${steps}): call ${listText(names, 'or')} next.`;
      out.push(makeReason(reasonCodes.sequenceExpected, step, message, names.slice(0, 1)));
    },
  };
}

/** Advances the active step's sequence of each orchestration whose expected position names `tool`. */
function advanceSteps(own: StepIndex, orchestrations: readonly OrchestrationState[], tool: string) {
  let changed = false;
  const next = orchestrations.map((orchestration, o) => {
    const active = orchestration.active;
    const step = active === null ? undefined : own.orchestrations[o]?.steps[active];
    const expected = step?.sequence?.[orchestration.position];
    if (expected === undefined || !positionTools(expected).includes(tool)) return orchestration;
    changed = true;
    return { ...orchestration, position: orchestration.position + 1 };
  });
  return changed ? next : orchestrations;
}

/** `step`: AgentDock's orchestration steps, one orchestration per file. */
export const stepKind = {
  kind: 'step',
  reasonCodes,
  schema: stepSchema,
  tools: (rule) => [
    ...toolMentions(rule.allowed ?? [], 'allowed'),
    ...toolMentions(rule.denied ?? [], 'denied'),
    ...(rule.sequence ?? []).flatMap((position) => toolMentions(positionTools(position), 'sequence')),
    ...rule.conditions.flatMap((condition) =>
      condition.type === 'tool_used' && condition.value !== undefined
        ? toolMentions([condition.value], 'conditions')
        : [],
    ),
  ],
  load: {
    fields: checkStepFields,
    blocksAtStart: {
      order: 40,
      why(rule, tool, facts) {
        const steps = stepsOfFile(rule, facts);
        if (steps[0] !== rule || !steps.every((step) => !stepListsAllow(step, tool))) return null;
        return `no orchestration step of ${rule.ref.file} allows it`;
      },
    },
    reachability(rule, facts, out) {
      if (rule.sequence === undefined) return;
      checkPositions(rule, { positions: rule.sequence, allows: (tool) => stepListsAllow(rule, tool) }, { facts, out });
    },
    activation(rule, facts, out) {
      const steps = stepsOfFile(rule, facts);
      const fallback = steps.find((step) => step.default) ?? steps.find((step) => step.conditions.length === 0);
      if (rule === fallback || rule.conditions.length > 0) return;
      out.push(
        diagnosticFor(
          rule,
          'warning',
          'step-never-active',
          `${ruleName(rule)} has no conditions and is not the default step, so it can never become active`,
          'give it conditions, or mark it as the default step',
        ),
      );
    },
  },
  index(rules, { on, set }) {
    const byPosition = new Map(rules.map(({ rule, position }) => [position, rule]));
    let recentLength = 0;
    for (const { rule, position } of rules) {
      for (const tool of (rule.sequence ?? []).flatMap((names) => positionTools(names))) on.affectsAll(tool);
      for (const condition of rule.conditions) {
        if (condition.type === 'tool_used' && condition.value !== undefined) {
          on.affectsAll(condition.value);
          on.trackDone(condition.value, { scope: 'session', position });
        }
        if (condition.type === 'sequence_match') recentLength = Math.max(recentLength, rule.sequence?.length ?? 0);
      }
    }
    if (recentLength > 0) on.alwaysDependent();
    const orchestrations = set.orchestrations.map((orchestration): OrchestrationIndex => {
      const steps = orchestration.steps.flatMap((position) => byPosition.get(position) ?? []);
      let defaultStep = steps.findIndex((step) => step.default);
      if (defaultStep < 0) defaultStep = steps.findIndex((step) => step.conditions.length === 0);
      return { file: orchestration.file, steps, positions: orchestration.steps, defaultStep };
    });
    const own: StepIndex = { orchestrations, recentLength };
    orchestrations.forEach((orchestration, o) => on.checkEveryTool(checkActiveStep(orchestration, o)));
    if (orchestrations.length > 0) {
      on.recordEveryCompleted({
        record(draft, outcome, context) {
          if (recentLength > 0) draft.recent = [...draft.recent, outcome.tool].slice(-recentLength);
          draft.orchestrations = advanceSteps(own, draft.orchestrations, outcome.tool);
          draft.orchestrations = selectActiveSteps(own, { index: context.index, state: draft });
        },
      });
    }
    return own;
  },
  initialState(own, { index, state }) {
    const messages = evaluateMessages(own, '');
    const orchestrations = own.orchestrations.map((_, o) => ({
      active: null,
      position: 0,
      messageOk: messages[o] ?? [],
    }));
    const recent: readonly string[] = [];
    return { orchestrations: selectActiveSteps(own, { index, state: { ...state, orchestrations, recent } }), recent };
  },
  startRun(draft, own, { message, index }) {
    const messages = evaluateMessages(own, message);
    draft.orchestrations = draft.orchestrations.map((orchestration, o) => ({
      ...orchestration,
      messageOk: messages[o] ?? [],
    }));
    draft.orchestrations = selectActiveSteps(own, { index, state: draft });
  },
  describe(context, own) {
    const steps = own.orchestrations.map((orchestration, o) => {
      const current = context.state.orchestrations[o];
      const active = current?.active ?? null;
      const step = active === null ? undefined : orchestration.steps[active];
      const expected = step?.sequence?.[current?.position ?? 0];
      return {
        file: orchestration.file,
        active: step?.name ?? null,
        position: current?.position ?? 0,
        expected: expected === undefined ? null : [...positionTools(expected)],
      };
    });
    return { steps };
  },
  graph(rule, draw) {
    for (const position of rule.sequence ?? []) for (const tool of positionTools(position)) draw.note(tool);
    drawSequenceEdges(rule.sequence ?? [], `step ${rule.name}`, draw);
  },
  formats: {
    agentdock: agentDockStep,
  },
} satisfies RuleKindModule<'step', StepIndex>;
