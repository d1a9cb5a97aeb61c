import {
  ReasonCode,
  approvalDeniedReason,
  beginTurn,
  checkEnd,
  dependsOn,
  describeRuleState,
  endRun,
  initialRuleState,
  narrow,
  record,
  startRun,
  validate,
} from '../rules';
import type { CheckEndResult, CompiledRuleSet, NarrowResult, RuleState, RuleStateView, ValidateResult } from '../rules';
import { refusalMessage } from './enforcement';
import { readRuleState } from './read-rule-state';
import type { ShadowVerdict } from './shadow-verdict';
import type { ToolrailPolicyEvent } from './toolrail-policy-event';

/** One call as the rules see it. */
export interface KeptCall {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
}

/**
 * The rule state of one conversation and every move of it, through the engine's public functions
 * only, each reported as an event: runs, turns and narrowing, verdicts, recorded outcomes, the end,
 * and what shadow rules would have done.
 */
export class RuleKeeper {
  private current: RuleState;
  private readonly shadowed: ShadowVerdict[] = [];

  constructor(
    readonly rules: CompiledRuleSet,
    /** The loop's tool names, in the loop's order. */
    readonly catalog: readonly string[],
    stored: RuleState | string | undefined,
    private readonly report: (event: ToolrailPolicyEvent) => void,
  ) {
    this.current = stored === undefined ? initialRuleState(rules) : readRuleState(rules, stored);
  }

  /** The state now. */
  get state(): RuleState {
    return this.current;
  }

  /** The state for humans (`describeRuleState`). */
  describe(): RuleStateView {
    return describeRuleState(this.rules, this.current, this.catalog);
  }

  /** What shadow rules would have done so far, in order (copies). */
  get shadowVerdicts(): ShadowVerdict[] {
    return [...this.shadowed];
  }

  /** A new user message (or, before any, the first run): a run starts. */
  startRun(userMessage: string): void {
    this.update(startRun(this.rules, this.current, { userMessage }));
    this.report({ type: 'run-started', run: this.current.run });
  }

  /** Whether a run has started in this conversation. */
  get started(): boolean {
    return this.current.run > 0;
  }

  /** A turn begins and the tools narrow; a narrowing that leaves nothing ends the run. */
  beginTurn(): NarrowResult {
    this.update(beginTurn(this.rules, this.current));
    const narrowed = narrow(this.rules, this.current, this.catalog);
    if (narrowed.ended !== undefined) this.update(endRun(this.current, narrowed.ended));
    return narrowed;
  }

  /** Whether a text answer would end the run now, and if not why. */
  checkEnd(): CheckEndResult {
    return checkEnd(this.rules, this.current);
  }

  /** What shadow rules would have hidden at the step `narrowed` began, reported when they would have. */
  shadowNarrowing(narrowed: NarrowResult): void {
    const { shadowHidden, shadowEnded } = narrowed;
    if (shadowHidden === undefined) return;
    const ended = shadowEnded === undefined ? {} : { ended: shadowEnded };
    this.shadow({ kind: 'hidden', turn: this.current.turn, tools: shadowHidden, ...ended });
  }

  /** A text answer: it ends the run when the rules let it; reported either way. */
  answer(): void {
    const { endsRun, reasons, shadowRefused } = checkEnd(this.rules, this.current);
    this.report({ type: 'end-checked', endsRun, reasons });
    if (shadowRefused !== undefined) this.shadow({ kind: 'end', turn: this.current.turn, reasons: shadowRefused });
    if (!endsRun) return;
    const limited = reasons.some((reason) => reason.code === ReasonCode.turnLimit);
    this.update(endRun(this.current, limited ? 'turn_limit' : 'answered'));
  }

  /** Whether the run is over, or the next turn would end it (the turn limit, no tool left). */
  runIsOver(): boolean {
    const state = this.current;
    if (state.ended !== null || state.runTurns >= this.rules.settings.maxTurnsPerRun) return true;
    return narrow(this.rules, state, this.catalog).ended !== undefined;
  }

  /** The verdict on a call against the state now, reported (`resumed`: a request brought it back approved). */
  judge(call: KeptCall, resumed = false): ValidateResult {
    const verdict = this.peek(call);
    const { callId, tool } = call;
    const { reasons, requiresApproval } = verdict;
    const again = resumed ? { resumed: true as const } : {};
    this.report({ type: 'verdict', callId, tool, verdict: verdict.verdict, reasons, requiresApproval, ...again });
    const turn = this.current.turn;
    if (verdict.shadowRefused !== undefined) {
      const message = refusalMessage(tool, verdict.shadowRefused);
      this.shadow({ kind: 'refused', turn, callId, tool, reasons: verdict.shadowRefused, message });
    }
    if (verdict.shadowRequiresApproval === true) {
      this.shadow({ kind: 'approval', turn, callId, tool, rule: approvalDeniedReason(this.rules, tool).rule });
    }
    return verdict;
  }

  /** The verdict on a call against the state now, not reported. */
  peek(call: KeptCall): ValidateResult {
    return validate(this.rules, this.current, { tool: call.tool, args: call.args }, this.catalog);
  }

  /** A human refused a call that needed approval: reported as the rules' verdict (nothing is recorded). */
  refuseByHuman(call: KeptCall): void {
    const reasons = [approvalDeniedReason(this.rules, call.tool)];
    const { callId, tool } = call;
    this.report({ type: 'verdict', callId, tool, verdict: 'blocked', reasons, requiresApproval: true, resumed: true });
  }

  /** A call that ran: its outcome advances the state (a failure is an attempt that satisfies nothing). */
  record(call: KeptCall, outcome: { result: unknown; error: boolean }): void {
    const { tool, args } = call;
    this.update(record(this.rules, this.current, { tool, args, ...outcome }));
    this.report({ type: 'call-recorded', callId: call.callId, tool, error: outcome.error });
  }

  /** Whether some rule can make the verdict on `later` depend on `earlier` completing first. */
  dependsOn(earlier: { tool: string }, later: { tool: string }): boolean {
    return dependsOn(this.rules, earlier, later);
  }

  /** Whether an enforced `requires_approval` rule covers the tool (a shadow one asks no human). */
  hasApprovalRule(tool: string): boolean {
    const { rule } = approvalDeniedReason(this.rules, tool);
    if (rule.kind !== 'requires_approval') return false;
    return this.rules.rules.some((compiled) => compiled.ref === rule && compiled.enforcement !== 'shadow');
  }

  /** Keeps and reports what shadow rules would have done. */
  private shadow(verdict: ShadowVerdict): void {
    this.shadowed.push(verdict);
    this.report({ type: 'rule-shadowed', ...verdict });
  }

  /** Moves to the next state, reporting the run's end when it ends here. */
  private update(next: RuleState): void {
    const before = this.current.ended;
    this.current = next;
    if (before === null && next.ended !== null) this.report({ type: 'run-ended', reason: next.ended });
  }
}
