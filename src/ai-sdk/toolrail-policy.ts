import { NoSuchToolError, wrapLanguageModel } from 'ai';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage, PrepareStepResult, ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';
import { ReasonCode } from '../rules';
import type { CompiledRuleSet, NarrowResult, RuleEnforcement, RuleState, RuleStateView } from '../rules';
import { checkLoopTools } from './check-loop-tools';
import { checkRuleTools } from './check-rule-tools';
import { clientResults, deniedCalls, isResumedCall, newUserMessage } from './conversation-tail';
import { heldStatus, humanStatus, offeredTools, queuedReason, refusalError, refusalStatus } from './enforcement';
import { askLoopApproval } from './loop-approval';
import type { ApprovalRequest, LoopApproval } from './loop-approval';
import { offerTools } from './offer-tools';
import { outcomePart } from './outcome-part';
import { RuleKeeper } from './rule-keeper';
import { shadowRuleSet } from './shadow-rule-set';
import type { ShadowVerdict } from './shadow-verdict';
import { StepLedger } from './step-ledger';
import type { PolicyToolChoice, ToolrailPolicyEvent } from './toolrail-policy-event';
import type { PolicyCall, PolicyCallRunner } from './wrap-policy-tools';
import { wrapPolicyTools } from './wrap-policy-tools';

/** Options of {@link createToolrailPolicy}. */
export interface ToolrailPolicyOptions<TOOLS extends ToolSet> {
  /** The rules, compiled (`compileRuleSet`, `loadRuleSet`). Every tool they name must be one of `tools`. */
  readonly rules: CompiledRuleSet;
  /** The loop's tools (`tool()`, `dynamicTool()`); the policy's `tools` are these, wrapped. */
  readonly tools: TOOLS;
  /** The rule state a policy of the same rules left (`policy.state`), or its JSON text. Default: a new conversation. */
  readonly state?: RuleState | string | undefined;
  /**
   * When the rules require a tool call (init tools at the start of a run; a pending `child`, `parent`,
   * `conditional`, `continue` or `required_before_exit` rule), `prepareStep` sets `toolChoice` to
   * `required`, or to the one tool left. Set `false` for models that cannot be forced: a text answer
   * the rules refuse then ends the loop but not the run. Default: true.
   */
  readonly forceToolCalls?: boolean;
  /**
   * The loop's own approval (what you would pass as `toolApproval`: a function, or statuses and
   * functions per tool, such as `@ai-sdk/policy-opa`'s `opaPolicy(...)`), asked about each call the
   * rules allow: `denied` refuses it, `user-approval` asks a human. Without it, each tool's
   * `needsApproval` is asked. Default: none.
   */
  readonly toolApproval?: ToolApprovalConfiguration<TOOLS, Record<string, unknown>>;
  /**
   * `shadow`: every rule of `rules` is only reported, whatever the rule set says: the policy hides,
   * refuses, forces and asks a human for nothing the rules would, and reports what they would have
   * done as `rule-shadowed` events (and in `describe()`), to try a rule set on live traffic.
   * `enforce`: each rule as the rule set says (its `enforcement: shadow` rules stay reported only).
   * Default: `enforce`.
   */
  readonly enforcement?: RuleEnforcement;
  /**
   * Called with each decision as it is made (runs, narrowing, verdicts, recorded calls, end checks,
   * and what shadow rules would have done). Default: none.
   */
  readonly onEvent?: (event: ToolrailPolicyEvent) => void;
}

/** The policy's view: the rule state's (`describeRuleState`), and what shadow rules would have done in this request. */
export type ToolrailPolicyView = RuleStateView & {
  /** Every shadow verdict of this request so far, in order (as the `rule-shadowed` events said); absent when none. */
  readonly shadowed?: ShadowVerdict[];
};

/** The one tool choice of a step: the loop's own unless the rules force a call. */
function forcedChoice(narrowed: NarrowResult, mustCall: boolean): PolicyToolChoice {
  const [only, ...others] = narrowed.visible;
  if (!mustCall || only === undefined) return 'auto';
  return others.length === 0 ? { type: 'tool', toolName: only } : 'required';
}

/**
 * toolrail's rules in an AI SDK loop (`generateText`, `streamText`, `ToolLoopAgent`, `WorkflowAgent`):
 * the same engine, so the same verdicts, reasons and hidden tools as a session. Spread `settings`
 * into the loop's options. One policy serves one conversation's request: keep `state` between
 * requests and give it to the next policy.
 */
export class ToolrailPolicy<TOOLS extends ToolSet> {
  /** The compiled rules, as the policy applies them (every rule `shadow` with `enforcement: 'shadow'`). */
  readonly rules: CompiledRuleSet;
  /** The loop's tools, wrapped: each execution is judged, run in call order where the rules need it, and recorded. */
  readonly tools: TOOLS;
  private readonly keeper: RuleKeeper;
  private readonly clientTools: ReadonlySet<string>;
  private readonly providerTools: ReadonlySet<string>;
  private readonly ownTools: TOOLS;
  private readonly forceToolCalls: boolean;
  private readonly loopApproval: ToolApprovalConfiguration<TOOLS, Record<string, unknown>> | undefined;
  private readonly onEvent: (event: ToolrailPolicyEvent) => void;
  private ledger = new StepLedger(false);
  /** Whether the model is wrapped (`wrapModel`): the model call hides the tools instead of `activeTools`. */
  private narrowsInModel = false;
  /** The tools the current step offers the model. */
  private offered: ReadonlySet<string> | undefined;

  constructor(options: ToolrailPolicyOptions<TOOLS>) {
    this.rules = options.enforcement === 'shadow' ? shadowRuleSet(options.rules) : options.rules;
    this.ownTools = options.tools;
    const catalog = Object.keys(options.tools);
    checkLoopTools(options.tools);
    checkRuleTools(this.rules, catalog);
    this.onEvent = options.onEvent ?? (() => {});
    this.keeper = new RuleKeeper(this.rules, catalog, options.state, (event) => this.onEvent(event));
    this.forceToolCalls = options.forceToolCalls ?? true;
    this.loopApproval = options.toolApproval;
    const tools = Object.entries(options.tools);
    const byProvider = (tool: (typeof tools)[number][1]) => tool.type === 'provider' && tool.isProviderExecuted;
    this.providerTools = new Set(tools.filter(([, tool]) => byProvider(tool)).map(([name]) => name));
    this.clientTools = new Set(tools.filter(([, tool]) => tool.execute == null && !byProvider(tool)).map(([n]) => n));
    this.tools = wrapPolicyTools(options.tools, this.runner);
  }

  /** The rule state now: plain JSON to store between requests (as it is, or as JSON text). */
  get state(): RuleState {
    return this.keeper.state;
  }

  /**
   * The state for humans: visible tools and why the rest is hidden, counts, positions, whether an
   * answer would end the run (with what shadow rules would hide or refuse now), and `shadowed`, what
   * they would have done in this request. Plain JSON.
   */
  describe(): ToolrailPolicyView {
    const shadowed = this.keeper.shadowVerdicts;
    return { ...this.keeper.describe(), ...(shadowed.length > 0 ? { shadowed } : {}) };
  }

  /** What to spread into `generateText`, `streamText` or `new ToolLoopAgent(...)`. */
  get settings() {
    const { tools, prepareStep, toolApproval, repairToolCall, stopWhen, onStepEnd } = this;
    return { tools, prepareStep, toolApproval, repairToolCall, stopWhen, onStepEnd };
  }

  /**
   * The model, wrapped so that each step's call offers it only the visible tools. The loop then keeps
   * every tool callable (no `activeTools`), so a call of a tool the step hid is judged like any other,
   * after the earlier calls of its response, exactly as in a session (with `activeTools` alone, such a
   * call is refused on the state at the step's start).
   */
  wrapModel(model: LanguageModelV4): LanguageModelV4 {
    this.narrowsInModel = true;
    const transformParams = ({ params }: { params: LanguageModelV4CallOptions }) =>
      Promise.resolve(offerTools(params, this.offered));
    return wrapLanguageModel({ model, middleware: { specificationVersion: 'v4', transformParams } });
  }

  /**
   * Before each step: the first step of a request starts a run when the request brings a user
   * message (and records what the request brings: results of tools the browser runs, a human's
   * denials); then a turn begins and the tools narrow to `activeTools` (none once the run is over),
   * with a forced `toolChoice` when the rules require a call.
   */
  readonly prepareStep = ({
    stepNumber,
    messages,
  }: {
    stepNumber: number;
    messages: ModelMessage[];
  }): PrepareStepResult<TOOLS> => {
    this.ledger.close();
    this.ledger = new StepLedger(false);
    if (stepNumber === 0) this.beginRequest(messages);
    const narrowed = this.keeper.beginTurn();
    const initPhase = narrowed.hidden.some(({ reasons }) => reasons.some((r) => r.code === ReasonCode.initRequired));
    const mustCall = this.forceToolCalls && (initPhase || !this.keeper.checkEnd().endsRun);
    const toolChoice = forcedChoice(narrowed, mustCall);
    const { visible, hidden, ended } = narrowed;
    const turn = this.keeper.state.turn;
    this.onEvent({ type: 'tools-narrowed', turn, visible, hidden, ...(ended ? { ended } : {}), toolChoice });
    this.keeper.shadowNarrowing(narrowed);
    const offered = offeredTools(narrowed);
    this.offered = new Set(offered);
    const choice = toolChoice === 'auto' ? {} : { toolChoice: toolChoice as never };
    if (this.narrowsInModel) return choice;
    return { activeTools: offered, ...choice };
  };

  /**
   * Judges each proposed call as if the calls of its step ran in order: refused calls are `denied`
   * with the rules' reasons (the text the model reads), calls a rule or the tool's `needsApproval`
   * sends to a human are `user-approval`, and a call whose verdict depends on an earlier call of the
   * step is judged when it runs. A call the request resumes (a human approved it) is judged again.
   */
  readonly toolApproval = async (request: ApprovalRequest): Promise<ToolApprovalStatus> => {
    const { toolCall, messages } = request;
    const call = { callId: toolCall.toolCallId, tool: toolCall.toolName, args: toolCall.input };
    if (isResumedCall(messages, call.callId)) return this.judgeResumed(call, request);
    const later = this.ledger.later();
    const client = later.find((entry) => entry.kind === 'client');
    if (client !== undefined) {
      this.ledger.add(call, 'held');
      this.onEvent({ type: 'call-held', callId: call.callId, tool: call.tool, behind: client.callId });
      return heldStatus(call.tool, client);
    }
    const pending = this.dependsOnPending(call);
    const verdict = pending ? undefined : this.keeper.judge(call);
    if (verdict?.verdict === 'blocked') {
      this.ledger.add(call, 'refused');
      return refusalStatus(call.tool, verdict.reasons);
    }
    const loop = await this.askLoop(request);
    if (loop?.kind === 'denied') {
      this.ledger.add(call, 'refused');
      return { type: 'denied', reason: loop.reason };
    }
    const ruleApproval = verdict?.requiresApproval ?? this.keeper.hasApprovalRule(call.tool);
    const behind = later.at(-1);
    const human =
      (ruleApproval ? `a rule requires approval for ${call.tool}` : loop?.reason) ??
      (behind && queuedReason(call.tool, behind));
    if (human !== undefined) {
      this.ledger.add(call, 'waiting');
      if (behind !== undefined) {
        this.onEvent({ type: 'call-queued', callId: call.callId, tool: call.tool, behind: behind.callId });
      }
      return humanStatus(human);
    }
    this.ledger.add(call, pending ? 'deferred' : this.runKind(call.tool));
    return 'not-applicable';
  };

  /**
   * A call of a tool the step's `activeTools` left out (the rules hid it) or that the loop does not
   * have: instead of the AI SDK's "unavailable tool", the model reads the rules' reasons, judged on
   * the state at the start of the step. Input errors are left to the AI SDK.
   */
  readonly repairToolCall = ({
    toolCall,
    error,
  }: {
    toolCall: { toolCallId: string; toolName: string; input: string };
    error: unknown;
  }): Promise<null> => {
    if (!NoSuchToolError.isInstance(error)) return Promise.resolve(null);
    let args: unknown = toolCall.input;
    try {
      args = JSON.parse(toolCall.input === '' ? '{}' : toolCall.input) as unknown;
    } catch {
      // The rules judge the raw text: no rule can read arguments from it.
    }
    const verdict = this.keeper.judge({ callId: toolCall.toolCallId, tool: toolCall.toolName, args });
    if (verdict.verdict === 'allowed') return Promise.resolve(null);
    const { toolName } = toolCall;
    return Promise.reject(refusalError(toolName, verdict.reasons));
  };

  /**
   * Stops the loop when the run is over: a terminal tool completed, or the next turn would end it
   * (the turn limit, no tool left). The loop's own conditions still apply beside it.
   */
  readonly stopWhen = (): boolean => this.keeper.runIsOver();

  /**
   * After each step: the outcomes of calls the provider ran are recorded; a text answer ends the run
   * when the rules let it, and is reported either way.
   */
  readonly onStepEnd = (step: { toolCalls: readonly unknown[]; finishReason: string; content: readonly object[] }) => {
    for (const part of step.content) {
      const outcome = outcomePart(part);
      if (outcome === undefined || !this.providerTools.has(outcome.tool)) continue;
      this.keeper.record(outcome, outcome);
    }
    if (step.toolCalls.length > 0 || ['length', 'content-filter', 'error'].includes(step.finishReason)) return;
    this.keeper.answer();
  };

  /** What the wrapped tools call around each execution. */
  private readonly runner: PolicyCallRunner = {
    begin: async (call, abortSignal) => {
      const ledger = this.ledger;
      const entry = ledger.get(call.callId) ?? ledger.add(call, 'deferred');
      if (entry.kind === 'run') return;
      await ledger.earlierSettled(call.callId, abortSignal);
      const verdict = this.keeper.judge(call, ledger.resumed);
      if (verdict.verdict === 'allowed') return;
      ledger.settle(call.callId);
      throw refusalError(call.tool, verdict.reasons);
    },
    end: async (call, { result, error }, abortSignal) => {
      const ledger = this.ledger;
      try {
        await ledger.earlierSettled(call.callId, abortSignal);
      } finally {
        this.keeper.record(call, { result, error });
        ledger.settle(call.callId);
      }
    },
    // Loops without `toolApproval` (WorkflowAgent) ask each call's `needsApproval`, in call order: the
    // step's calls are noted as `toolApproval` notes them, and judged when they run. A call the request
    // brings back approved is asked again: anything but a denial lets it run.
    needsApproval: async (call, ownVerdict, messages) => {
      const known = this.ledger.get(call.callId);
      if (known !== undefined) return known.kind === 'waiting';
      // A call a human approved, brought back: it runs (and is judged when it does, after the earlier ones).
      if (isResumedCall(messages, call.callId)) {
        this.ledger.add(call, 'deferred');
        return true;
      }
      const behind = this.ledger.later().at(-1);
      const pending = this.dependsOnPending(call);
      const verdict = pending ? undefined : this.keeper.peek(call);
      const human =
        verdict?.verdict !== 'blocked' &&
        (behind !== undefined ||
          (verdict?.requiresApproval ?? this.keeper.hasApprovalRule(call.tool)) ||
          (await ownVerdict()));
      this.ledger.add(call, human ? 'waiting' : 'deferred');
      if (human && behind !== undefined) {
        this.onEvent({ type: 'call-queued', callId: call.callId, tool: call.tool, behind: behind.callId });
      }
      return human;
    },
  };

  /**
   * A call a human approved, brought back by the request: judged again on the state now (in a step of
   * the request's resumed calls), and asked of the loop's own approval again (which may now deny it).
   */
  private async judgeResumed(call: PolicyCall, request: ApprovalRequest): Promise<ToolApprovalStatus> {
    if (!this.ledger.resumed) {
      this.ledger.close();
      this.ledger = new StepLedger(true);
    }
    const pending = this.dependsOnPending(call);
    const verdict = pending ? undefined : this.keeper.judge(call, true);
    if (verdict?.verdict === 'blocked') {
      this.ledger.add(call, 'refused');
      return refusalStatus(call.tool, verdict.reasons);
    }
    const loop = await this.askLoop(request);
    if (loop?.kind === 'denied') {
      this.ledger.add(call, 'refused');
      return { type: 'denied', reason: loop.reason };
    }
    this.ledger.add(call, pending ? 'deferred' : this.runKind(call.tool));
    return 'approved';
  }

  /**
   * What the loop's own approval settings say of a call (the `toolApproval` option, else the tool's
   * `needsApproval`).
   */
  private askLoop(request: ApprovalRequest): Promise<LoopApproval> {
    const tool = this.ownTools[request.toolCall.toolName];
    return askLoopApproval({ request, toolApproval: this.loopApproval, tool });
  }

  /** How an allowed call of `tool` runs: here, in the browser (no `execute`), or at the provider. */
  private runKind(tool: string): 'run' | 'client' | 'provider' {
    return this.clientTools.has(tool) ? 'client' : this.providerTools.has(tool) ? 'provider' : 'run';
  }

  /**
   * Whether some earlier call of the step whose outcome is not recorded yet (still to run, or waiting
   * for a later request) could change this call's verdict.
   */
  private dependsOnPending(call: PolicyCall): boolean {
    const pending = [...this.ledger.unsettled(), ...this.ledger.later()];
    return pending.some((earlier) => this.keeper.dependsOn(earlier, call));
  }

  /**
   * The first step of a request: what the request brings since the model last spoke, then a new run
   * if a user spoke.
   */
  private beginRequest(messages: ModelMessage[]): void {
    for (const call of clientResults(messages, (tool) => this.clientTools.has(tool))) this.keeper.record(call, call);
    for (const call of deniedCalls(messages)) this.keeper.refuseByHuman(call);
    const userMessage = newUserMessage(messages);
    if (userMessage !== undefined || !this.keeper.started) this.keeper.startRun(userMessage ?? '');
  }
}
