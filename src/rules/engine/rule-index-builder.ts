import { appendTo } from '../append-to';
import type { AnyCompiledRule } from '../compiled-rule-set';
import type { IndexBuilder, SlotRequest } from '../kinds/index-builder';
import type {
  ApprovalRules,
  EndCheck,
  ExitRequirement,
  PrerequisiteSource,
  Recorder,
  RuleIndex,
  ToolCheck,
} from './rule-index-types';
import { isShadow } from './is-shadow';

/** Checks in reason order: by `order`, then by rule position (a stable sort keeps registration order). */
function inOrder<Check extends { readonly order: number; readonly position: number }>(checks: Check[]): Check[] {
  return checks.sort((a, b) => a.order - b.order || a.position - b.position);
}

/**
 * The checks as the engine holds them: one object shape, made at one place, whatever object literal a
 * kind registered (the engine's loops over them then see a single shape, and stay fast).
 */
function toolCheck({ order, position, check }: ToolCheck): ToolCheck {
  return { order, position, check };
}

function endCheck({ order, position, check }: EndCheck): EndCheck {
  return { order, position, check };
}

function recorderOf({ record }: Recorder): Recorder {
  return { record };
}

/** Slots of one per-tool array of the state, given in the order of the positions of the rules that asked. */
function slotsOf(requests: readonly { tool: string; position: number }[]): Map<string, number> {
  const slots = new Map<string, number>();
  const ordered = requests.map((request, i) => ({ ...request, i }));
  ordered.sort((a, b) => a.position - b.position || a.i - b.i);
  for (const { tool } of ordered) if (!slots.has(tool)) slots.set(tool, slots.size);
  return slots;
}

/** What the kinds register while a rule set is indexed; `finish` turns it into the {@link RuleIndex}. */
export class RuleIndexBuilder implements IndexBuilder {
  private readonly done = {
    run: [] as { tool: string; position: number }[],
    session: [] as { tool: string; position: number }[],
  };
  private readonly attempts = {
    run: [] as { tool: string; position: number }[],
    session: [] as { tool: string; position: number }[],
  };
  private readonly toolChecks = new Map<string, ToolCheck[]>();
  private readonly everyToolChecks: ToolCheck[] = [];
  private readonly afterChecks = new Map<string, ToolCheck[]>();
  private readonly endChecksAfter = new Map<string, EndCheck[]>();
  private readonly everyEndChecks: EndCheck[] = [];
  private readonly recorders = new Map<string, Recorder[]>();
  private readonly everyRecorders: Recorder[] = [];
  private readonly prerequisiteSources = new Map<string, PrerequisiteSource[]>();
  private readonly exitRequirements: ExitRequirement[] = [];
  private readonly approvals = new Map<string, ApprovalRules>();
  private readonly outputReaders = new Set<string>();
  private readonly affected = new Map<string, Set<string>>();
  private readonly affectsAllTools = new Set<string>();
  private readonly dependsOnAllTools = new Set<string>();
  private always = false;

  trackDone(tool: string, { scope, position }: SlotRequest): void {
    this.done[scope].push({ tool, position });
  }

  countAttempts(tool: string, { scope, position }: SlotRequest): void {
    this.attempts[scope].push({ tool, position });
  }

  checkTool(tool: string, check: ToolCheck): void {
    appendTo(this.toolChecks, tool, toolCheck(check));
  }

  checkEveryTool(check: ToolCheck): void {
    this.everyToolChecks.push(toolCheck(check));
  }

  checkAfter(tool: string, check: ToolCheck): void {
    appendTo(this.afterChecks, tool, toolCheck(check));
  }

  checkEndAfter(tool: string, check: EndCheck): void {
    appendTo(this.endChecksAfter, tool, endCheck(check));
  }

  checkEveryEnd(check: EndCheck): void {
    this.everyEndChecks.push(endCheck(check));
  }

  recordCompleted(tool: string, recorder: Recorder): void {
    appendTo(this.recorders, tool, recorderOf(recorder));
  }

  recordEveryCompleted(recorder: Recorder): void {
    this.everyRecorders.push(recorderOf(recorder));
  }

  prerequisites(tool: string, source: PrerequisiteSource): void {
    appendTo(this.prerequisiteSources, tool, source);
  }

  requireBeforeExit(requirement: ExitRequirement): void {
    this.exitRequirements.push(requirement);
  }

  requireApproval(tool: string, rule: AnyCompiledRule): void {
    const rules = this.approvals.get(tool) ?? { enforce: null, shadow: null };
    if (isShadow(rule)) this.approvals.set(tool, { enforce: rules.enforce, shadow: rules.shadow ?? rule });
    else this.approvals.set(tool, { enforce: rules.enforce ?? rule, shadow: rules.shadow });
  }

  readsOutput(tool: string): void {
    this.outputReaders.add(tool);
  }

  affects(earlier: string, later: string): void {
    const tools = this.affected.get(earlier) ?? new Set<string>();
    tools.add(later);
    this.affected.set(earlier, tools);
  }

  affectsAll(tool: string): void {
    this.affectsAllTools.add(tool);
  }

  dependsOnAll(tool: string): void {
    this.dependsOnAllTools.add(tool);
  }

  alwaysDependent(): void {
    this.always = true;
  }

  /** The index: every check list in reason order, with the checks of every tool (or answer) merged in. */
  finish(rest: Pick<RuleIndex, 'mentioned' | 'mentionedEnforced' | 'shadowRules' | 'kinds'>): RuleIndex {
    const everyToolChecks = inOrder(this.everyToolChecks);
    const everyEndChecks = inOrder(this.everyEndChecks);
    const withEvery = <Check extends ToolCheck | EndCheck>(map: Map<string, Check[]>, every: readonly Check[]) =>
      new Map([...map].map(([tool, checks]) => [tool, inOrder([...checks, ...every])] as const));
    return {
      toolChecks: withEvery(this.toolChecks, everyToolChecks),
      everyToolChecks,
      afterChecks: new Map([...this.afterChecks].map(([tool, checks]) => [tool, inOrder(checks)] as const)),
      endChecksAfter: withEvery(this.endChecksAfter, everyEndChecks),
      everyEndChecks,
      recorders: this.recorders,
      everyRecorders: this.everyRecorders,
      prerequisites: new Map([...this.prerequisiteSources].map(([tool, sources]) => [tool, inOrder(sources)] as const)),
      attemptsRunSlot: slotsOf(this.attempts.run),
      attemptsSessionSlot: slotsOf(this.attempts.session),
      doneRunSlot: slotsOf(this.done.run),
      doneSessionSlot: slotsOf(this.done.session),
      exitRequirements: this.exitRequirements,
      approvals: this.approvals,
      outputReaders: this.outputReaders,
      dependencies: {
        affects: this.affected,
        affectsAll: this.affectsAllTools,
        dependsOnAll: this.dependsOnAllTools,
        always: this.always,
      },
      ...rest,
    };
  }
}
