import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import { isToolPattern } from '../paths/tool-pattern';

/** The rules that concern one tool, by role, as indices into `rules.rules`. */
export interface ToolRules {
  /** `requires` rules gating this tool. */
  readonly requires: number[];
  readonly maxCount: number[];
  readonly preconditions: number[];
  /** `parent` rules that list this tool among their children. */
  readonly parentsOf: number[];
  /** `child`, `parent`, `conditional` rules on this tool: they constrain the call right after it. */
  readonly childRules: number[];
  readonly conditionals: number[];
  /** `forbids_after` rules on this tool: they fire when it completes. */
  readonly forbidsAfter: number[];
  /** `precondition` rules whose `requires_prior_tool` is this tool: its outputs are captured for them. */
  readonly capturedFor: number[];
  /** `sequence` rules (by sequence slot) with this tool in some position. */
  readonly inSequences: number[];
  terminal: number | null;
  continueRule: number | null;
  requiredRule: number | null;
  approvalRule: number | null;
}

/** Per-orchestration data the engine needs at every step selection. */
export interface OrchestrationIndex {
  readonly file: string;
  readonly steps: readonly number[];
  /** Position (in `steps`) of the default step, or -1. */
  readonly defaultStep: number;
  readonly usesMessages: boolean;
}

/** Lookup tables derived from a compiled rule set; built once per rule set object and cached. */
export interface RuleIndex {
  readonly byTool: Map<string, ToolRules>;
  /** Slots of per-tool arrays in the rule state. */
  readonly attemptsRunSlot: Map<string, number>;
  readonly attemptsSessionSlot: Map<string, number>;
  readonly doneRunSlot: Map<string, number>;
  readonly doneSessionSlot: Map<string, number>;
  readonly forbidSlot: Map<string, number>;
  /** Slot in `state.captures` of each precondition rule that needs output or resource capture. */
  readonly captureSlot: Map<number, number>;
  readonly captureRules: readonly number[];
  readonly sequences: readonly number[];
  readonly initRules: readonly number[];
  readonly initTools: ReadonlySet<string>;
  readonly requiredRules: readonly number[];
  readonly defaultRules: readonly number[];
  /** Every tool name some rule mentions (globs excluded). */
  readonly mentioned: ReadonlySet<string>;
  readonly orchestrations: readonly OrchestrationIndex[];
  /** How many recent completed tools `sequence_match` conditions need, 0 when none. */
  readonly recentLength: number;
  /** Rules that constrain tools by what was completed last (`child`, `parent`, `conditional`) exist. */
  readonly hasLastRules: boolean;
  /** Tools named as a child by some `child`, `parent` or `conditional` rule. */
  readonly childTools: ReadonlySet<string>;
  /** Tools whose completion can change an orchestration's active step or sequence position. */
  readonly stepTriggers: ReadonlySet<string>;
}

const cache = new WeakMap<CompiledRuleSet, RuleIndex>();

function emptyToolRules(): ToolRules {
  return {
    requires: [],
    maxCount: [],
    preconditions: [],
    parentsOf: [],
    childRules: [],
    conditionals: [],
    forbidsAfter: [],
    capturedFor: [],
    inSequences: [],
    terminal: null,
    continueRule: null,
    requiredRule: null,
    approvalRule: null,
  };
}

function slotFor(map: Map<string, number>, tool: string): void {
  if (!map.has(tool)) map.set(tool, map.size);
}

/** The index of a rule set: built on first use and cached by object identity (deterministic). */
export function ruleIndex(rules: CompiledRuleSet): RuleIndex {
  const known = cache.get(rules);
  if (known) return known;
  const index = buildRuleIndex(rules);
  cache.set(rules, index);
  return index;
}

/** Names a sequence position may take. */
export function positionTools(position: string | readonly string[]): readonly string[] {
  return typeof position === 'string' ? [position] : position;
}

function buildRuleIndex(rules: CompiledRuleSet): RuleIndex {
  const byTool = new Map<string, ToolRules>();
  const of = (tool: string): ToolRules => {
    let entry = byTool.get(tool);
    if (!entry) {
      entry = emptyToolRules();
      byTool.set(tool, entry);
    }
    return entry;
  };
  const mentioned = new Set<string>();
  const mention = (tool: string): void => {
    if (!isToolPattern(tool)) mentioned.add(tool);
  };
  const attemptsRunSlot = new Map<string, number>();
  const attemptsSessionSlot = new Map<string, number>();
  const doneRunSlot = new Map<string, number>();
  const doneSessionSlot = new Map<string, number>();
  const forbidSlot = new Map<string, number>();
  const captureSlot = new Map<number, number>();
  const captureRules: number[] = [];
  const sequences: number[] = [];
  const initRules: number[] = [];
  const initTools = new Set<string>();
  const requiredRules: number[] = [];
  const defaultRules: number[] = [];
  let recentLength = 0;
  let hasLastRules = false;
  const childTools = new Set<string>();
  const stepTriggers = new Set<string>();

  rules.rules.forEach((rule, i) => {
    if ('tool' in rule) mention(rule.tool);
    switch (rule.kind) {
      case 'requires':
        of(rule.tool).requires.push(i);
        for (const after of rule.after) {
          mention(after);
          slotFor(rule.scope === 'run' ? doneRunSlot : doneSessionSlot, after);
        }
        break;
      case 'forbids_after':
        of(rule.tool).forbidsAfter.push(i);
        for (const forbidden of rule.forbids) {
          mention(forbidden);
          slotFor(forbidSlot, forbidden);
        }
        break;
      case 'max_count':
        of(rule.tool).maxCount.push(i);
        slotFor(rule.scope === 'run' ? attemptsRunSlot : attemptsSessionSlot, rule.tool);
        break;
      case 'precondition':
        of(rule.tool).preconditions.push(i);
        if (rule.requires_prior_tool !== undefined) {
          mention(rule.requires_prior_tool);
          slotFor(doneSessionSlot, rule.requires_prior_tool);
          if (rule.with_output !== undefined || rule.resource !== undefined) {
            captureSlot.set(i, captureRules.length);
            captureRules.push(i);
            of(rule.requires_prior_tool).capturedFor.push(i);
          }
        }
        break;
      case 'sequence':
        rule.positions.forEach((position) => {
          for (const tool of positionTools(position)) {
            mention(tool);
            const entry = of(tool);
            if (!entry.inSequences.includes(sequences.length)) entry.inSequences.push(sequences.length);
          }
        });
        sequences.push(i);
        break;
      case 'step':
        for (const tool of [...(rule.allowed ?? []), ...(rule.denied ?? [])]) mention(tool);
        for (const position of rule.sequence ?? []) {
          for (const tool of positionTools(position)) {
            mention(tool);
            stepTriggers.add(tool);
          }
        }
        for (const condition of rule.conditions) {
          if (condition.type === 'tool_used' && condition.value !== undefined) {
            mention(condition.value);
            stepTriggers.add(condition.value);
            slotFor(doneSessionSlot, condition.value);
          }
          if (condition.type === 'sequence_match') recentLength = Math.max(recentLength, rule.sequence?.length ?? 0);
        }
        break;
      case 'init':
        initRules.push(i);
        initTools.add(rule.tool);
        break;
      case 'child':
      case 'parent':
        hasLastRules = true;
        of(rule.tool).childRules.push(i);
        for (const child of rule.children) {
          mention(child);
          childTools.add(child);
          if (rule.kind === 'parent') of(child).parentsOf.push(i);
        }
        break;
      case 'conditional':
        hasLastRules = true;
        of(rule.tool).conditionals.push(i);
        for (const entry of rule.mapping) {
          mention(entry.child);
          childTools.add(entry.child);
        }
        if (rule.default_child !== undefined) {
          mention(rule.default_child);
          childTools.add(rule.default_child);
        }
        break;
      case 'terminal':
        of(rule.tool).terminal ??= i;
        break;
      case 'continue':
        of(rule.tool).continueRule ??= i;
        break;
      case 'required_before_exit':
        requiredRules.push(i);
        of(rule.tool).requiredRule ??= i;
        slotFor(doneRunSlot, rule.tool);
        break;
      case 'requires_approval':
        of(rule.tool).approvalRule ??= i;
        break;
      case 'default':
        defaultRules.push(i);
        for (const tool of rule.known ?? []) mention(tool);
        break;
    }
  });

  const orchestrations = rules.orchestrations.map((orchestration): OrchestrationIndex => {
    const steps = orchestration.steps.map((i) => rules.rules[i] as CompiledRuleOf<'step'>);
    let defaultStep = steps.findIndex((step) => step.default);
    if (defaultStep < 0) defaultStep = steps.findIndex((step) => step.conditions.length === 0);
    const usesMessages = steps.some((step) => step.conditions.some((c) => c.type.startsWith('message_')));
    return { file: orchestration.file, steps: orchestration.steps, defaultStep, usesMessages };
  });

  return {
    byTool,
    attemptsRunSlot,
    attemptsSessionSlot,
    doneRunSlot,
    doneSessionSlot,
    forbidSlot,
    captureSlot,
    captureRules,
    sequences,
    initRules,
    initTools,
    requiredRules,
    defaultRules,
    mentioned,
    orchestrations,
    recentLength,
    hasLastRules,
    childTools,
    stepTriggers,
  };
}

const noRules: ToolRules = emptyToolRules();

/** The rules of one tool (an empty record when none mention it). Untrusted names are safe: `Map` lookup. */
export function toolRules(index: RuleIndex, tool: string): ToolRules {
  return index.byTool.get(tool) ?? noRules;
}
