import type { z } from 'zod';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import type { Recorder } from '../engine/rule-index-types';
import { sharedReason } from '../engine/shared-reason';
import { positionTools } from '../paths/position-tools';
import type { RuleRef } from '../rule-ref';
import { checkPositions } from './check-positions';
import { drawSequenceEdges } from './draw-sequence-edges';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function sequenceSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.base,
      kind: zod.literal('sequence'),
      positions: zod.array(common.position).min(1, 'a sequence needs at least one position'),
      scope: common.scope.default('run'),
    })
    .strict();
}

/** A `sequence` rule: while unfinished, only the expected position's tools (one, or alternatives) are allowed. */
export type SequenceRule = z.output<ReturnType<typeof sequenceSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    sequence: {
      rule: SequenceRule;
      state: {
        /** Position of each `sequence` rule, in rule order. */
        readonly sequences: readonly number[];
      };
      view: {
        readonly sequences: { rule: RuleRef; position: number; length: number; expected: string[] | null }[];
      };
      reasonCode: 'sequence_expected';
    };
  }
}

const reasonCodes = { sequenceExpected: 'sequence_expected' } as const;

type Sequence = RuleOfKind<'sequence'>;

/** Advances each sequence (by slot) whose expected position names the completed tool. */
function advance(sequences: readonly Sequence[], slots: readonly number[]): Recorder {
  return {
    record(draft, outcome) {
      let next: number[] | null = null;
      for (const slot of slots) {
        const position = draft.sequences[slot] ?? 0;
        const expected = sequences[slot]?.positions[position];
        if (expected === undefined || !positionTools(expected).includes(outcome.tool)) continue;
        next ??= draft.sequences.slice();
        next[slot] = position + 1;
      }
      if (next !== null) draft.sequences = next;
    },
  };
}

/** `sequence`: tools in a fixed order, per run (default) or per session. */
export const sequenceKind = {
  kind: 'sequence',
  reasonCodes,
  schema: sequenceSchema,
  tools: (rule) => rule.positions.flatMap((position) => toolMentions(positionTools(position), 'positions')),
  load: {
    blocksAtStart: {
      order: 30,
      why(rule, tool) {
        const first = rule.positions[0];
        if (first === undefined || positionTools(first).includes(tool)) return null;
        const where = `${rule.ref.file}:${rule.ref.line ?? rule.ref.path}`;
        return `a sequence (${where}) must start with ${positionTools(first).join(' or ')}`;
      },
    },
    reachability: (rule, facts, out) =>
      checkPositions(rule, { positions: rule.positions, allows: null }, { facts, out }),
  },
  index(rules, { on }) {
    const sequences = rules.map(({ rule }) => rule);
    const slotsOfTool = new Map<string, number[]>();
    rules.forEach(({ rule, position }, slot) => {
      for (const tool of rule.positions.flatMap((names) => positionTools(names))) {
        on.affectsAll(tool);
        const slots = slotsOfTool.get(tool) ?? [];
        if (!slots.includes(slot)) slots.push(slot);
        slotsOfTool.set(tool, slots);
      }
      on.checkEveryTool({
        order: reasonOrder.sequence,
        position,
        check(context, tool, _args, out) {
          const at = context.state.sequences[slot] ?? 0;
          const expected = rule.positions[at];
          if (expected === undefined) return;
          const names = positionTools(expected);
          if (names.includes(tool)) return;
          out.push(
            sharedReason(context, `sequence:${slot}`, () => {
              const steps = `step ${at + 1} of ${rule.positions.length}`;
              const message = `Follow the sequence (${steps}): call ${listText(names, 'or')} next.`;
              return makeReason(reasonCodes.sequenceExpected, rule, message, names.slice(0, 1));
            }),
          );
        },
      });
    });
    for (const [tool, slots] of slotsOfTool) on.recordCompleted(tool, advance(sequences, slots));
    return sequences;
  },
  initialState: (sequences: readonly Sequence[]) => ({ sequences: sequences.map(() => 0) }),
  startRun(draft, sequences: readonly Sequence[]) {
    draft.sequences = sequences.map((rule, slot) => (rule.scope === 'run' ? 0 : (draft.sequences[slot] ?? 0)));
  },
  describe: (context, sequences: readonly Sequence[]) => ({
    sequences: sequences.map((rule, slot) => {
      const position = context.state.sequences[slot] ?? 0;
      const expected = rule.positions[position];
      return {
        rule: rule.ref,
        position,
        length: rule.positions.length,
        expected: expected === undefined ? null : [...positionTools(expected)],
      };
    }),
  }),
  graph(rule, draw) {
    for (const position of rule.positions) for (const tool of positionTools(position)) draw.note(tool);
    drawSequenceEdges(rule.positions, `sequence ${draw.nthOfKind}`, draw);
  },
  formats: {},
} satisfies RuleKindModule<'sequence', readonly Sequence[]>;
