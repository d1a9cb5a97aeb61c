import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, jsonSchema, tool } from 'ai';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  AiSdkToolInvalidError,
  RuleStateInvalidError,
  RuleToolMissingError,
  createToolrailPolicy,
} from '../../../src/ai-sdk';
import type { ToolrailPolicyEvent } from '../../../src/ai-sdk';
import { compileRules } from '../../helpers/compile-rules';
import { MockModelScript } from '../../helpers/mock-model-script';

const anyInput = jsonSchema<Record<string, unknown>>({ type: 'object' });

/** Tools that return `output(name, input)`, counting their runs. */
function toolsNamed(names: string[], output: (name: string, input: unknown) => unknown = (name) => `${name} done`) {
  const runs: string[] = [];
  const tools: Record<string, Tool> = Object.fromEntries(
    names.map((name) => [
      name,
      tool({
        description: `The ${name} tool.`,
        inputSchema: anyInput,
        execute: (input) => {
          runs.push(name);
          return output(name, input);
        },
      }),
    ]),
  );
  return { tools, runs };
}

/** What the model was offered in one call: tool names and the tool choice. */
function offered(call: LanguageModelV4CallOptions | undefined) {
  return { tools: call?.tools?.map((entry) => entry.name) ?? [], toolChoice: call?.toolChoice };
}

/** The output the model read for one call, from the prompt of a later model call. */
function outputFor(prompt: LanguageModelV4Prompt | undefined, callId: string): unknown {
  for (const message of prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && part.toolCallId === callId) return part.output;
  }
  return undefined;
}

/** The approval requests a request's content ends with (the policy's own decisions left out). */
function approvalRequests(content: readonly unknown[]) {
  return content.flatMap((part) => {
    const request = part as { type: string; approvalId: string; isAutomatic?: boolean; toolCall: { toolName: string } };
    return request.type === 'tool-approval-request' && request.isAutomatic !== true ? [request] : [];
  });
}

/** The error `body` throws. */
function thrown(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('the toolrail policy in an AI SDK loop', () => {
  it('offers the model only the visible tools, and forces the call the rules require', async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'init', tool: 'start' },
        { kind: 'child', tool: 'lookup', children: ['refund'] },
        { kind: 'required_before_exit', tool: 'log' },
      ],
    });
    const { tools } = toolsNamed(['start', 'lookup', 'refund', 'log', 'chat']);
    const script = new MockModelScript([
      { calls: [{ id: 's', tool: 'start' }] },
      { calls: [{ id: 'l', tool: 'lookup' }] },
      { calls: [{ id: 'r', tool: 'refund' }] },
      { calls: [{ id: 'g', tool: 'log' }] },
      { text: 'Refunded.' },
    ]);
    const policy = createToolrailPolicy({ rules, tools });
    await generateText({ model: policy.wrapModel(script.model), prompt: 'Refund me.', ...policy.settings });
    expect(script.calls.map(offered)).toEqual([
      { tools: ['start'], toolChoice: { type: 'tool', toolName: 'start' } },
      { tools: ['start', 'lookup', 'refund', 'log', 'chat'], toolChoice: { type: 'required' } },
      { tools: ['refund'], toolChoice: { type: 'tool', toolName: 'refund' } },
      { tools: ['start', 'lookup', 'refund', 'log', 'chat'], toolChoice: { type: 'required' } },
      { tools: ['start', 'lookup', 'refund', 'log', 'chat'], toolChoice: { type: 'auto' } },
    ]);
    expect(policy.state).toMatchObject({ ended: 'answered', runCompleted: 4 });
  });

  it('leaves the tool choice to the loop when forceToolCalls is false, and reports a refused answer', async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'required_before_exit', tool: 'log' }] });
    const { tools } = toolsNamed(['log']);
    const script = new MockModelScript([{ text: 'Done already.' }]);
    const events: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({
      rules,
      tools,
      forceToolCalls: false,
      onEvent: (event) => events.push(event),
    });
    const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Go.', ...policy.settings });
    expect(result.text).toBe('Done already.');
    expect(offered(script.calls[0]).toolChoice).toEqual({ type: 'auto' });
    expect(events.at(-1)).toMatchObject({
      type: 'end-checked',
      endsRun: false,
      reasons: [{ code: 'required_before_exit', message: 'Before finishing, call log.' }],
    });
    // The answer ended the loop, not the run: the next request goes on with the same run.
    expect(policy.state.ended).toBeNull();
    expect(policy.describe().endCheck.endsRun).toBe(false);
  });

  it("refuses a call with the AI SDK's denied status and the rules' reasons, which the model reads", async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'forbids_after', tool: 'close', forbids: ['reopen'] }] });
    const { tools, runs } = toolsNamed(['close', 'reopen']);
    const script = new MockModelScript([
      { calls: [{ id: 'c1', tool: 'close' }] },
      { calls: [{ id: 'r1', tool: 'reopen' }] },
      { text: 'It stays closed.' },
    ]);
    const policy = createToolrailPolicy({ rules, tools });
    const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Reopen.', ...policy.settings });
    expect(runs).toEqual(['close']);
    expect(result.steps[1]?.content).toMatchObject([
      { type: 'tool-call', toolCallId: 'r1' },
      { type: 'tool-approval-request', isAutomatic: true },
      { type: 'tool-approval-response', approved: false },
    ]);
    expect(outputFor(script.calls[2]?.prompt, 'r1')).toEqual({
      type: 'execution-denied',
      reason: expect.stringMatching(/^The tool-use rules refused reopen:\n- \[forbidden_after\] .*close/) as unknown,
    });
  });

  it('narrows with activeTools when the model is not wrapped: a hidden tool is refused on the state at the start of its step', async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'requires', tool: 'assign', after: ['create'] }] });
    const { tools, runs } = toolsNamed(['create', 'assign']);
    const script = new MockModelScript([
      {
        calls: [
          { id: 'c', tool: 'create' },
          { id: 'a', tool: 'assign' },
        ],
      },
      { text: 'ok' },
    ]);
    const events: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({ rules, tools, onEvent: (event) => events.push(event) });
    await generateText({ model: script.model, prompt: 'File it.', ...policy.settings });
    expect(offered(script.calls[0]).tools).toEqual(['create']);
    // The AI SDK cannot run a tool outside activeTools: assign is refused though create came first.
    expect(runs).toEqual(['create']);
    expect(events.find((event) => event.type === 'verdict' && event.callId === 'a')).toMatchObject({
      verdict: 'blocked',
      reasons: [{ code: 'prerequisite_not_met', callFirst: ['create'] }],
    });
    expect(outputFor(script.calls[1]?.prompt, 'a')).toMatchObject({
      type: 'error-text',
      value: expect.stringContaining(
        'The tool-use rules refused assign:\n- [prerequisite_not_met] Call create before assign.',
      ) as unknown,
    });

    // The wrapped model hides assign from the model too, but judges its call after create's, as a session does.
    const wrapped = new MockModelScript([
      {
        calls: [
          { id: 'c', tool: 'create' },
          { id: 'a', tool: 'assign' },
        ],
      },
      { text: 'ok' },
    ]);
    const exact = createToolrailPolicy({ rules, tools });
    await generateText({ model: exact.wrapModel(wrapped.model), prompt: 'File it.', ...exact.settings });
    expect(offered(wrapped.calls[0]).tools).toEqual(['create']);
    expect(runs).toEqual(['create', 'create', 'assign']);
  });

  it("puts a rule's approval to a human, runs the approved call in the next request, and records it", async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'requires_approval', tool: 'deploy' },
        { kind: 'requires', tool: 'announce', after: ['deploy'] },
      ],
    });
    const { tools, runs } = toolsNamed(['deploy', 'announce']);
    const script = new MockModelScript([
      { calls: [{ id: 'd', tool: 'deploy' }] },
      { calls: [{ id: 'a', tool: 'announce' }] },
      { text: 'Deployed and announced.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Ship it.' }];
    const first = createToolrailPolicy({ rules, tools });
    const asking = await generateText({ model: first.wrapModel(script.model), messages, ...first.settings });
    const [request] = approvalRequests(asking.content);
    expect(request).toMatchObject({ toolCall: { toolName: 'deploy' }, reason: 'a rule requires approval for deploy' });
    expect(runs).toEqual([]);
    const stored = JSON.stringify(first.state);

    messages.push(...asking.responseMessages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: true }],
    });
    const second = createToolrailPolicy({ rules, tools, state: stored });
    const done = await generateText({ model: second.wrapModel(script.model), messages, ...second.settings });
    expect(runs).toEqual(['deploy', 'announce']);
    expect(done.text).toBe('Deployed and announced.');
    expect(second.state).toMatchObject({ run: 1, runCompleted: 2, ended: 'answered' });
  });

  it('keeps a call a human denied from running, and the rules see it never completed', async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'requires_approval', tool: 'deploy' },
        { kind: 'requires', tool: 'announce', after: ['deploy'] },
      ],
    });
    const { tools, runs } = toolsNamed(['deploy', 'announce']);
    const script = new MockModelScript([
      { calls: [{ id: 'd', tool: 'deploy' }] },
      { calls: [{ id: 'a', tool: 'announce' }] },
      { text: 'Not deployed.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Ship it.' }];
    const first = createToolrailPolicy({ rules, tools });
    const asking = await generateText({ model: first.wrapModel(script.model), messages, ...first.settings });
    const [request] = approvalRequests(asking.content);
    messages.push(...asking.responseMessages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved: false }],
    });
    const events: ToolrailPolicyEvent[] = [];
    const second = createToolrailPolicy({ rules, tools, state: first.state, onEvent: (event) => events.push(event) });
    await generateText({ model: second.wrapModel(script.model), messages, ...second.settings });
    expect(runs).toEqual([]);
    expect(events.filter((event) => event.type === 'verdict')).toMatchObject([
      { callId: 'd', verdict: 'blocked', reasons: [{ code: 'approval_denied' }], requiresApproval: true },
      { callId: 'a', verdict: 'blocked', reasons: [{ code: 'prerequisite_not_met' }] },
    ]);
  });

  it("honours a tool's own needsApproval", async () => {
    const rules = compileRules({ toolrail: 1, rules: [] });
    const tools: ToolSet = {
      transfer: tool({
        description: 'Transfers money.',
        inputSchema: jsonSchema<{ cents: number }>({ type: 'object' }),
        needsApproval: (input) => input.cents > 1000,
        execute: ({ cents }) => `sent ${cents}`,
      }),
    };
    const script = new MockModelScript([
      { calls: [{ id: 'small', tool: 'transfer', args: { cents: 500 } }] },
      { calls: [{ id: 'large', tool: 'transfer', args: { cents: 5000 } }] },
    ]);
    const policy = createToolrailPolicy({ rules, tools });
    const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Pay.', ...policy.settings });
    expect(result.steps[0]?.toolResults.map((part) => part.output as unknown)).toEqual(['sent 500']);
    expect(approvalRequests(result.content)).toMatchObject([
      { toolCall: { toolCallId: 'large' }, reason: 'transfer asks for approval (its needsApproval)' },
    ]);
  });

  it("asks the loop's own toolApproval (such as an OPA policy) about each call the rules allow, and only those", async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'requires', tool: 'deploy', after: ['build'] }] });
    const { tools, runs } = toolsNamed(['build', 'deploy']);
    const asked: string[] = [];
    const script = new MockModelScript([
      { calls: [{ id: 'd1', tool: 'deploy', args: { env: 'dev' } }] },
      { calls: [{ id: 'b1', tool: 'build', args: { env: 'prod' } }] },
      { calls: [{ id: 'b2', tool: 'build', args: { env: 'dev' } }] },
      { calls: [{ id: 'd2', tool: 'deploy', args: { env: 'dev' } }] },
    ]);
    const policy = createToolrailPolicy({
      rules,
      tools,
      toolApproval: ({ toolCall }) => {
        asked.push(toolCall.toolCallId);
        if ((toolCall.input as { env: string }).env === 'prod')
          return { type: 'denied', reason: 'Nothing goes to prod.' };
        return toolCall.toolName === 'deploy'
          ? { type: 'user-approval', reason: 'Deploys need a second pair of eyes.' }
          : undefined;
      },
    });
    const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Ship.', ...policy.settings });
    // The rules refused d1 first: the loop's approval never saw it.
    expect(asked).toEqual(['b1', 'b2', 'd2']);
    expect(runs).toEqual(['build']);
    expect(outputFor(script.calls[2]?.prompt, 'b1')).toEqual({
      type: 'execution-denied',
      reason: 'Nothing goes to prod.',
    });
    expect(approvalRequests(result.content)).toMatchObject([
      { toolCall: { toolCallId: 'd2' }, reason: 'Deploys need a second pair of eyes.' },
    ]);
  });

  it('stops the loop once a terminal tool completes, and at the turn limit', async () => {
    const terminal = compileRules({ toolrail: 1, rules: [{ kind: 'terminal', tool: 'finish' }] });
    const { tools } = toolsNamed(['finish', 'work']);
    const script = new MockModelScript([{ calls: [{ id: 'f', tool: 'finish' }] }, { text: 'never asked' }]);
    const policy = createToolrailPolicy({ rules: terminal, tools });
    await generateText({ model: policy.wrapModel(script.model), prompt: 'Finish.', ...policy.settings });
    expect([script.remaining, policy.state.ended]).toEqual([1, 'terminal']);

    const limited = compileRules({ toolrail: 1, maxTurnsPerRun: 2, rules: [] });
    const busy = new MockModelScript([1, 2, 3].map((n) => ({ calls: [{ id: `w${n}`, tool: 'work' }] })));
    const capped = createToolrailPolicy({ rules: limited, tools });
    await generateText({ model: capped.wrapModel(busy.model), prompt: 'Work.', ...capped.settings });
    expect(busy.remaining).toBe(1);
  });

  it("records a streaming tool's last output, which output conditions read", async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        {
          kind: 'precondition',
          tool: 'refund',
          requires_prior_tool: 'check',
          with_output: [{ path: '$.eligible', equals: true }],
        },
      ],
    });
    const tools: ToolSet = {
      check: tool({
        description: 'Checks eligibility, reporting progress.',
        inputSchema: anyInput,
        execute: async function* () {
          yield await Promise.resolve({ eligible: false, progress: 'checking' });
          yield { eligible: true, progress: 'done' };
        },
      }),
      refund: tool({ description: 'Refunds.', inputSchema: anyInput, execute: () => 'refunded' }),
    };
    const script = new MockModelScript([
      { calls: [{ id: 'c', tool: 'check' }] },
      { calls: [{ id: 'r', tool: 'refund' }] },
      { text: 'Refunded.' },
    ]);
    const policy = createToolrailPolicy({ rules, tools });
    const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Refund.', ...policy.settings });
    expect(result.steps[1]?.toolResults.map((part) => part.output as unknown)).toEqual(['refunded']);
  });

  it('records the result of a tool the browser runs when the next request brings it', async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'requires', tool: 'ship', after: ['confirm'] }] });
    const tools: ToolSet = {
      confirm: tool({ description: 'Asks the user to confirm, in the browser.', inputSchema: anyInput }),
      ship: tool({ description: 'Ships.', inputSchema: anyInput, execute: () => 'shipped' }),
    };
    const script = new MockModelScript([
      { calls: [{ id: 'q', tool: 'confirm' }] },
      { calls: [{ id: 's', tool: 'ship' }] },
      { text: 'ok' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Ship it.' }];
    const first = createToolrailPolicy({ rules, tools });
    const waiting = await generateText({ model: first.wrapModel(script.model), messages, ...first.settings });
    expect(waiting.finishReason).toBe('tool-calls');
    messages.push(...waiting.responseMessages, {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'q', toolName: 'confirm', output: { type: 'json', value: { ok: true } } },
      ],
    });
    const second = createToolrailPolicy({ rules, tools, state: first.state });
    const shipped = await generateText({ model: second.wrapModel(script.model), messages, ...second.settings });
    expect(shipped.steps[0]?.toolResults.map((part) => part.output as unknown)).toEqual(['shipped']);
  });

  it('judges each call when it runs, in order, in a loop that never calls toolApproval', async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'requires', tool: 'b', after: ['a'] },
        { kind: 'forbids_after', tool: 'b', forbids: ['c'] },
      ],
    });
    const { tools, runs } = toolsNamed(['a', 'b', 'c']);
    const script = new MockModelScript([
      {
        calls: [
          { id: 'b1', tool: 'b' },
          { id: 'a1', tool: 'a' },
        ],
      },
      {
        calls: [
          { id: 'b2', tool: 'b' },
          { id: 'c2', tool: 'c' },
        ],
      },
      { text: 'ok' },
    ]);
    const policy = createToolrailPolicy({ rules, tools });
    const { tools: wrapped, prepareStep, stopWhen } = policy;
    const result = await generateText({
      model: policy.wrapModel(script.model),
      prompt: 'Go.',
      tools: wrapped,
      prepareStep,
      stopWhen,
    });
    expect(runs).toEqual(['a', 'b']);
    const errors = result.steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-error'));
    expect(errors.map((part) => [part.toolCallId, String(part.error)])).toEqual([
      [
        'b1',
        'RuleBlockedError: The tool-use rules refused b:\n- [prerequisite_not_met] Call a before b.\nCall first: a.',
      ],
      ['c2', expect.stringMatching(/^RuleBlockedError: The tool-use rules refused c:\n- \[forbidden_after\] /)],
    ]);
  });

  it("asks a human through the tools' needsApproval in a loop without toolApproval (as WorkflowAgent), in call order", async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'requires_approval', tool: 'create' },
        { kind: 'requires', tool: 'assign', after: ['create'] },
      ],
    });
    const { tools, runs } = toolsNamed(['create', 'assign']);
    const script = new MockModelScript([
      {
        calls: [
          { id: 'a1', tool: 'assign' },
          { id: 'c1', tool: 'create' },
          { id: 'a2', tool: 'assign' },
        ],
      },
      { text: 'Created and assigned.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'File it.' }];
    const first = createToolrailPolicy({ rules, tools });
    const { prepareStep, stopWhen, onStepEnd } = first;
    const model = first.wrapModel(script.model);
    const asking = await generateText({ model, messages, tools: first.tools, prepareStep, stopWhen, onStepEnd });
    // a1 ran and was refused when it ran; c1 waits for a human, and a2, after it, waits for the same decision.
    expect(
      asking.steps[0]?.content.filter((part) => part.type === 'tool-error').map((part) => part.toolCallId),
    ).toEqual(['a1']);
    const requests = approvalRequests(asking.content);
    expect(requests.map((request) => request.toolCall.toolName)).toEqual(['create', 'assign']);
    messages.push(...asking.responseMessages, {
      role: 'tool',
      content: requests.map((request) => ({
        type: 'tool-approval-response',
        approvalId: request.approvalId,
        approved: true,
      })),
    });
    const second = createToolrailPolicy({ rules, tools, state: first.state });
    const settings = { tools: second.tools, prepareStep: second.prepareStep, stopWhen: second.stopWhen };
    const done = await generateText({ model: second.wrapModel(script.model), messages, ...settings });
    expect(runs).toEqual(['create', 'assign']);
    expect(done.text).toBe('Created and assigned.');
  });

  it('refuses rules that name a tool the loop does not have, naming it and the tools there are', () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'requires', tool: 'refund', after: ['lookup'] }] });
    const error = thrown(() => createToolrailPolicy({ rules, tools: toolsNamed(['lookup', 'chat']).tools }));
    expect(RuleToolMissingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'RULE_TOOL_MISSING', tools: ['chat', 'lookup'] });
    expect((error as Error).message).toMatch(
      /^The rules do not fit the loop's tools \(chat, lookup\):\n- rules\[0\]: .*"refund".*\nAdd the missing tools to `tools`/,
    );
  });

  it('refuses a tool without an input schema, naming it', () => {
    const rules = compileRules({ toolrail: 1, rules: [] });
    const loose = { description: 'No schema.', execute: () => 1 } as unknown as ToolSet[string];
    const tools: ToolSet = { ...toolsNamed(['lookup']).tools, loose };
    const error = thrown(() => createToolrailPolicy({ rules, tools }));
    expect(AiSdkToolInvalidError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'AI_SDK_TOOL_INVALID', toolName: 'loose' });
    expect((error as Error).message).toMatch(/^AI SDK tool "loose" cannot be used: it has no inputSchema/);
  });

  it('refuses a stored state that is not a rule state of these rules, saying where', () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'max_count', tool: 'a', limit: 1 }] });
    const { tools } = toolsNamed(['a', 'b']);
    const fresh = createToolrailPolicy({ rules, tools }).state;
    const other = createToolrailPolicy({
      rules: compileRules({ toolrail: 1, rules: [{ kind: 'sequence', positions: ['a', 'b'] }] }),
      tools,
    }).state;
    const cases: [unknown, string, RegExp][] = [
      ['{"run": 1', '$', /the text is not JSON/],
      [[1, 2], '$', /it is not an object/],
      [{ ...fresh, run: -1 }, '$.run', /-1 is not an integer of at least 0/],
      [{ ...fresh, ended: 'bored' }, '$.ended', /it is not a way a run ends/],
      [{ ...fresh, extra: true }, '$.extra', /no rule state has this field/],
      [other, '$.attemptsRun', /it has 0 entries where these rules have 1 \(was it saved for other rules\?\)/],
    ];
    for (const [state, path, problem] of cases) {
      const error = thrown(() => createToolrailPolicy({ rules, tools, state: state as string }));
      expect(RuleStateInvalidError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'RULE_STATE_INVALID', path });
      expect((error as RuleStateInvalidError).problem).toMatch(problem);
    }
    expect(createToolrailPolicy({ rules, tools, state: JSON.stringify(fresh) }).state).toEqual(fresh);
  });
});

describe('shadow rules in the toolrail policy', () => {
  it('runs a call a shadow rule would refuse and reports its reasons and the text the model would have read', async () => {
    const body = { kind: 'forbids_after', tool: 'close', forbids: ['reopen'] };
    const script = () =>
      new MockModelScript([
        { calls: [{ id: 'c1', tool: 'close' }] },
        { calls: [{ id: 'r1', tool: 'reopen' }] },
        { text: 'Reopened.' },
      ]);
    const enforced = toolsNamed(['close', 'reopen']);
    const enforcedScript = script();
    const enforcedEvents: ToolrailPolicyEvent[] = [];
    const enforcing = createToolrailPolicy({
      rules: compileRules({ toolrail: 1, rules: [body] }),
      tools: enforced.tools,
      onEvent: (event) => enforcedEvents.push(event),
    });
    await generateText({ model: enforcing.wrapModel(enforcedScript.model), prompt: 'Reopen.', ...enforcing.settings });
    const refusal = enforcedEvents.find((event) => event.type === 'verdict' && event.callId === 'r1');
    const read = outputFor(enforcedScript.calls[2]?.prompt, 'r1') as { reason: string };

    const shadowed = toolsNamed(['close', 'reopen']);
    const events: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({
      rules: compileRules({ toolrail: 1, rules: [{ ...body, enforcement: 'shadow' }] }),
      tools: shadowed.tools,
      onEvent: (event) => events.push(event),
    });
    await generateText({ model: policy.wrapModel(script().model), prompt: 'Reopen.', ...policy.settings });
    expect(shadowed.runs).toEqual(['close', 'reopen']);
    expect(events.find((event) => event.type === 'verdict' && event.callId === 'r1')).toMatchObject({
      verdict: 'allowed',
      reasons: [],
    });
    const hidden = { tool: 'reopen', reasons: refusal?.type === 'verdict' ? refusal.reasons : 'no refusal' };
    expect(events.filter((event) => event.type === 'rule-shadowed')).toEqual([
      // Once close completed, the steps would not have offered reopen.
      { type: 'rule-shadowed', kind: 'hidden', turn: 2, tools: [hidden] },
      {
        type: 'rule-shadowed',
        kind: 'refused',
        turn: 2,
        callId: 'r1',
        tool: 'reopen',
        reasons: refusal?.type === 'verdict' ? refusal.reasons : 'no refusal',
        message: read.reason,
      },
      { type: 'rule-shadowed', kind: 'hidden', turn: 3, tools: [hidden] },
    ]);
    expect(read.reason).toMatch(/^The tool-use rules refused reopen:\n- \[forbidden_after\] /);
  });

  it('offers the tools a shadow rule would hide, reports them per step, and describe() shows the verdicts', async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [{ kind: 'max_count', tool: 'a', limit: 1, enforcement: 'shadow' }],
    });
    const { tools, runs } = toolsNamed(['a']);
    const script = new MockModelScript([
      { calls: [{ id: 'a1', tool: 'a' }] },
      { calls: [{ id: 'a2', tool: 'a' }] },
      { text: 'Done.' },
    ]);
    const events: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({ rules, tools, onEvent: (event) => events.push(event) });
    await generateText({ model: policy.wrapModel(script.model), prompt: 'Twice.', ...policy.settings });
    expect(script.calls.map(offered).map(({ tools: names }) => names)).toEqual([['a'], ['a'], ['a']]);
    expect(runs).toEqual(['a', 'a']);
    const limit = { code: 'max_count_reached', rule: { kind: 'max_count' } };
    const shadowed = events.filter((event) => event.type === 'rule-shadowed');
    expect(shadowed).toMatchObject([
      { kind: 'hidden', turn: 2, tools: [{ tool: 'a', reasons: [limit] }], ended: 'no_tool_allowed' },
      { kind: 'refused', turn: 2, callId: 'a2', tool: 'a', reasons: [limit] },
      { kind: 'hidden', turn: 3, tools: [{ tool: 'a', reasons: [limit] }], ended: 'no_tool_allowed' },
    ]);
    const view = policy.describe();
    expect(view.shadowed).toEqual(shadowed.map(({ type: _type, ...verdict }) => verdict));
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(policy.state.ended).toBe('answered');
  });

  for (const loop of ['toolApproval', 'needsApproval'] as const) {
    it(`asks no human for a call only a shadow requires_approval rule covers, and reports it (${loop})`, async () => {
      const rules = compileRules({
        toolrail: 1,
        rules: [
          { kind: 'requires', tool: 'deploy', after: ['test'] },
          { kind: 'requires_approval', tool: 'deploy', enforcement: 'shadow' },
        ],
      });
      const { tools, runs } = toolsNamed(['test', 'deploy']);
      // deploy waits for test, earlier in its response: it is judged when it runs.
      const script = new MockModelScript([
        {
          calls: [
            { id: 't', tool: 'test' },
            { id: 'd', tool: 'deploy' },
          ],
        },
        { text: 'Deployed.' },
      ]);
      const events: ToolrailPolicyEvent[] = [];
      const policy = createToolrailPolicy({ rules, tools, onEvent: (event) => events.push(event) });
      const { tools: wrapped, prepareStep, stopWhen, onStepEnd } = policy;
      const settings = loop === 'toolApproval' ? policy.settings : { tools: wrapped, prepareStep, stopWhen, onStepEnd };
      const result = await generateText({ model: policy.wrapModel(script.model), prompt: 'Ship.', ...settings });
      expect(approvalRequests(result.content)).toEqual([]);
      expect(runs).toEqual(['test', 'deploy']);
      expect(events.filter((event) => event.type === 'rule-shadowed')).toMatchObject([
        { kind: 'approval', turn: 1, callId: 'd', tool: 'deploy', rule: { kind: 'requires_approval', index: 1 } },
      ]);
    });
  }

  it('lets an answer a shadow rule would refuse end the run, forcing no call, and reports it', async () => {
    const rules = compileRules({
      toolrail: 1,
      enforcement: 'shadow',
      rules: [{ kind: 'required_before_exit', tool: 'log' }],
    });
    const { tools } = toolsNamed(['log']);
    const script = new MockModelScript([{ text: 'Done already.' }]);
    const events: ToolrailPolicyEvent[] = [];
    const policy = createToolrailPolicy({ rules, tools, onEvent: (event) => events.push(event) });
    await generateText({ model: policy.wrapModel(script.model), prompt: 'Go.', ...policy.settings });
    expect(offered(script.calls[0]).toolChoice).toEqual({ type: 'auto' });
    expect(policy.state.ended).toBe('answered');
    expect(events.filter((event) => event.type === 'rule-shadowed')).toMatchObject([
      { kind: 'end', turn: 1, reasons: [{ code: 'required_before_exit', message: 'Before finishing, call log.' }] },
    ]);
  });

  it("shadows a whole rule set with the policy's enforcement option, and its state carries on once enforced", async () => {
    const rules = compileRules({ toolrail: 1, rules: [{ kind: 'max_count', tool: 'a', limit: 1 }] });
    const { tools, runs } = toolsNamed(['a']);
    const script = new MockModelScript([
      { calls: [{ id: 'a1', tool: 'a' }] },
      { calls: [{ id: 'a2', tool: 'a' }] },
      { text: 'Twice.' },
      { calls: [{ id: 'a3', tool: 'a' }] },
      { text: 'Not again.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Twice.' }];
    const trying = createToolrailPolicy({ rules, tools, enforcement: 'shadow' });
    expect(trying.rules.rules.map((rule) => rule.enforcement)).toEqual(['shadow']);
    const first = await generateText({ model: trying.wrapModel(script.model), messages, ...trying.settings });
    expect(runs).toEqual(['a', 'a']);
    expect(trying.describe().shadowed?.map((verdict) => verdict.kind)).toEqual(['hidden', 'refused', 'hidden']);

    messages.push(...first.responseMessages, { role: 'user', content: 'Once more.' });
    const events: ToolrailPolicyEvent[] = [];
    const enforcing = createToolrailPolicy({
      rules,
      tools,
      state: JSON.stringify(trying.state),
      onEvent: (event) => events.push(event),
    });
    await generateText({ model: enforcing.wrapModel(script.model), messages, ...enforcing.settings });
    // The limit is per run: the new run allows one call, and the enforced rule counts from there.
    expect(runs).toEqual(['a', 'a', 'a']);
    expect(enforcing.describe()).toMatchObject({ hidden: [{ tool: 'a', reasons: [{ code: 'max_count_reached' }] }] });
    expect(enforcing.describe().shadowed).toBeUndefined();
  });
});
