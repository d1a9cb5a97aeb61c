import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ToolLoopAgent, generateText, jsonSchema, streamText, tool } from 'ai';
import type { ModelMessage, StopCondition, Tool, ToolApprovalResponse } from 'ai';
import { createToolrailPolicy } from '../../src/ai-sdk';
import type { ToolrailPolicyEvent } from '../../src/ai-sdk';
import type {
  CompiledRuleSet,
  Reason,
  RuleEnforcement,
  RuleState,
  SimulatedCall,
  SimulationLine,
  Trace,
} from '../../src/rules';
import { MockModelScript } from './mock-model-script';
import type { MockResponse } from './mock-model-script';

/** The AI SDK loops a trace can run in. */
export type PolicyLoop = 'generateText' | 'streamText' | 'ToolLoopAgent';

/** A trace as an AI SDK loop ran it under the policy. */
export interface PolicyTraceRun {
  /** The policy's decisions, as `simulateTrace` prints its lines. */
  readonly lines: SimulationLine[];
  /** Call ids (`c<event>_<call>`) the policy held behind a call that waited for a human. */
  readonly held: string[];
  /** How many requests (loop calls) the trace took. */
  readonly requests: number;
  /** The rule state the last request left. */
  readonly state: RuleState | undefined;
  /** Every event of every request's policy, in order. */
  readonly events: ToolrailPolicyEvent[];
}

type StepOutcome = { readonly result: unknown; readonly error: boolean };
type RequestResult = { content: readonly { type: string }[]; messages: ModelMessage[] };

/** The id the driver gives call `call` of trace event `event`. */
export const callIdOf = (event: number, call: number): string => `c${event}_${call}`;

/** Runs one request in the chosen loop and returns its content and response messages. */
async function request(
  loop: PolicyLoop,
  options: { model: LanguageModelV4; messages: ModelMessage[]; settings: PolicySettings },
): Promise<RequestResult> {
  const { model, messages, settings } = options;
  if (loop === 'generateText') {
    const result = await generateText({ model, messages, ...settings });
    return { content: result.content, messages: result.responseMessages };
  }
  if (loop === 'streamText') {
    const result = streamText({ model, messages, ...settings });
    await result.consumeStream();
    return { content: await result.content, messages: await result.responseMessages };
  }
  const result = await new ToolLoopAgent({ model, ...settings }).generate({ messages });
  return { content: result.content, messages: result.responseMessages };
}

type PolicySettings = Omit<ReturnType<typeof createToolrailPolicy<Record<string, Tool>>>['settings'], 'stopWhen'> & {
  stopWhen: StopCondition<Record<string, Tool>>[];
};

/**
 * Plays a trace in an AI SDK loop with the AI SDK's mock model and the policy, as a stateless
 * server would: each request gets a new policy made from the state the last one left (as JSON),
 * each user event starts a request, a refused answer ends one (`forceToolCalls: false`), and calls
 * waiting for approval are answered as the trace says (approved unless `approved: false`). The
 * policy's events become lines shaped like `simulateTrace`'s, with what shadow rules would have done.
 * `enforcement` is the policy's option of that name.
 */
export async function runTraceThroughPolicy(
  rules: CompiledRuleSet,
  trace: Trace,
  {
    loop = 'generateText',
    wrapModel = true,
    enforcement,
  }: { loop?: PolicyLoop; wrapModel?: boolean; enforcement?: RuleEnforcement } = {},
): Promise<PolicyTraceRun> {
  const outcomes = new Map<string, StepOutcome>();
  const approvals = new Map<string, boolean>();
  const modelEvents: number[] = [];
  const responses: MockResponse[] = [];
  trace.events.forEach((event, index) => {
    if ('user' in event) return;
    modelEvents.push(index);
    if ('text' in event) return void responses.push({ text: event.text });
    responses.push({
      calls: event.calls.map((call, c) => {
        const id = callIdOf(index, c);
        outcomes.set(id, { result: call.result ?? null, error: call.error ?? false });
        approvals.set(id, call.approved ?? true);
        return { id, tool: call.tool, args: call.args ?? {} };
      }),
    });
  });
  const script = new MockModelScript(responses);
  const tools: Record<string, Tool> = Object.fromEntries(
    trace.tools.map((name) => [
      name,
      tool({
        description: `The ${name} tool.`,
        inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
        execute: (_input, { toolCallId }) => {
          const outcome = outcomes.get(toolCallId);
          if (outcome?.error) throw new Error(`${name} failed`);
          return outcome?.result ?? null;
        },
      }),
    ]),
  );

  const events: ToolrailPolicyEvent[] = [];
  const userRuns = new Map<number, number>();
  const messages: ModelMessage[] = [];
  let state: string | undefined;
  let cursor = 0;
  let requests = 0;
  /** The trace event after the last one the model played. */
  const nextEvent = (): number => (modelEvents[responses.length - script.remaining - 1] ?? -1) + 1;
  const nextIsUser = (): boolean => {
    const next = trace.events[nextEvent()];
    return next !== undefined && 'user' in next;
  };
  let pendingUser: number | undefined;
  while (cursor < trace.events.length) {
    const event = trace.events[cursor];
    if (event !== undefined && 'user' in event) {
      messages.push({ role: 'user', content: event.user });
      pendingUser = cursor;
      cursor += 1;
      continue;
    }
    const requestEvents: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({
      rules,
      tools,
      ...(state === undefined ? {} : { state }),
      ...(enforcement === undefined ? {} : { enforcement }),
      forceToolCalls: false,
      onEvent: (decision) => requestEvents.push(decision),
    });
    const settings = { ...policy.settings, stopWhen: [policy.stopWhen, nextIsUser] };
    const model = wrapModel ? policy.wrapModel(script.model) : script.model;
    const result = await request(loop, { model, messages, settings });
    requests += 1;
    events.push(...requestEvents);
    const started = requestEvents.find((decision) => decision.type === 'run-started');
    if (pendingUser !== undefined && started?.type === 'run-started') userRuns.set(pendingUser, started.run);
    pendingUser = undefined;
    messages.push(...result.messages);
    state = JSON.stringify(policy.state);
    cursor = nextEvent();
    const asked = result.content.flatMap((part) => {
      if (part.type !== 'tool-approval-request') return [];
      const request = part as unknown as {
        approvalId: string;
        isAutomatic?: boolean;
        toolCall: { toolCallId: string };
      };
      return request.isAutomatic === true ? [] : [request];
    });
    if (asked.length === 0) continue;
    if (cursor >= trace.events.length || nextIsUser()) break;
    const answers: ToolApprovalResponse[] = asked.map((part) => ({
      type: 'tool-approval-response',
      approvalId: part.approvalId,
      approved: approvals.get(part.toolCall.toolCallId) ?? true,
    }));
    // The answers join the response's tool message, as `convertToModelMessages` would put them.
    const last = messages.at(-1);
    if (last?.role === 'tool') messages[messages.length - 1] = { ...last, content: [...last.content, ...answers] };
    else messages.push({ role: 'tool', content: answers });
  }
  const lines = linesOf(trace, modelEvents, events, userRuns);
  return {
    lines,
    held: heldOf(events),
    requests,
    state: state === undefined ? undefined : (JSON.parse(state) as RuleState),
    events,
  };
}

function heldOf(events: readonly ToolrailPolicyEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'call-held' ? [event.callId] : []));
}

/** What shadow rules would have done about one call: `simulateTrace`'s fields of a call line. */
type ShadowCallFields = Pick<SimulatedCall, 'shadowRefused' | 'shadowRequiresApproval'>;

/**
 * The policy's events as `simulateTrace` lines: narrowing per model event (with what shadow rules
 * would have hidden at its step), each call's last verdict (with what they would have done about it),
 * end checks (with the answer they would have refused).
 */
function linesOf(
  trace: Trace,
  modelEvents: readonly number[],
  events: readonly ToolrailPolicyEvent[],
  userRuns: ReadonlyMap<number, number>,
): SimulationLine[] {
  type ShadowNarrowing = Pick<Extract<SimulationLine, { type: 'calls' }>, 'shadowHidden' | 'shadowEnded'>;
  // Each step's narrowing, with what shadow rules would have hidden (reported right after it).
  const narrowings: { visible: string[]; ended?: 'no_tool_allowed'; shadow: ShadowNarrowing }[] = [];
  const endChecks: { endsRun: boolean; reasons: Reason[]; shadowRefused?: Reason[] }[] = [];
  const verdicts = new Map<string, SimulatedCall>();
  const shadowCalls = new Map<string, ShadowCallFields>();
  for (const event of events) {
    if (event.type === 'verdict') {
      const { tool, verdict, reasons, requiresApproval } = event;
      verdicts.set(event.callId, {
        tool,
        verdict,
        reasons: [...reasons],
        ...(requiresApproval ? { requiresApproval } : {}),
      });
      // A call judged again (resumed) has only what its last verdict's shadow events say.
      shadowCalls.delete(event.callId);
    } else if (event.type === 'tools-narrowed') {
      narrowings.push({ visible: [...event.visible], ...(event.ended ? { ended: event.ended } : {}), shadow: {} });
    } else if (event.type === 'end-checked') {
      endChecks.push({ endsRun: event.endsRun, reasons: [...event.reasons] });
    } else if (event.type === 'rule-shadowed') {
      if (event.kind === 'hidden') {
        const narrowing = narrowings.at(-1);
        if (narrowing === undefined) continue;
        narrowing.shadow = {
          shadowHidden: event.tools.map(({ tool }) => tool),
          ...(event.ended === undefined ? {} : { shadowEnded: event.ended }),
        };
      } else if (event.kind === 'end') {
        const check = endChecks.at(-1);
        if (check !== undefined) check.shadowRefused = [...event.reasons];
      } else {
        const known = shadowCalls.get(event.callId) ?? {};
        shadowCalls.set(
          event.callId,
          event.kind === 'refused'
            ? { ...known, shadowRefused: [...event.reasons] }
            : { ...known, shadowRequiresApproval: true },
        );
      }
    }
  }
  let texts = 0;
  return trace.events.flatMap((event, index): SimulationLine[] => {
    if ('user' in event) {
      const run = userRuns.get(index);
      return run === undefined ? [] : [{ event: index, type: 'user', run }];
    }
    const narrowed = narrowings[modelEvents.indexOf(index)];
    if (narrowed === undefined) return [];
    const { visible, shadow } = narrowed;
    const ended = narrowed.ended === undefined ? {} : { ended: narrowed.ended };
    if ('text' in event) {
      const check = endChecks[texts];
      texts += 1;
      if (check === undefined) return [];
      return [{ event: index, type: 'text', visible, ...ended, ...shadow, ...check }];
    }
    const calls = event.calls.map((call, c): SimulatedCall => {
      const id = callIdOf(index, c);
      const verdict = verdicts.get(id);
      return verdict === undefined
        ? { tool: call.tool, verdict: 'blocked', reasons: [] }
        : { ...verdict, ...shadowCalls.get(id) };
    });
    return [{ event: index, type: 'calls', visible, ...ended, ...shadow, calls }];
  });
}
