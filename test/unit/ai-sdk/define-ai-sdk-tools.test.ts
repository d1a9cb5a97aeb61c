import { dynamicTool, jsonSchema, tool } from 'ai';
import type { ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AiSdkToolInvalidError, defineAiSdkTools } from '../../../src/ai-sdk';
import { ToolDefinitionError } from '../../../src/tools';
import type { AnyTool, ToolExecutionContext } from '../../../src/tools';

/** A call context as a session gives it, with a heartbeat counter. */
function callContext(callId = 'call_1', signal = new AbortController().signal) {
  const context = {
    sessionId: 'session-1',
    callId,
    interactive: true,
    signal,
    idempotencyKey: `session-1/${callId}`,
    heartbeats: 0,
    heartbeat() {
      context.heartbeats += 1;
    },
  };
  return context satisfies ToolExecutionContext;
}

function only(tools: AnyTool[]): AnyTool {
  const [first] = tools;
  if (first === undefined || tools.length !== 1) throw new Error(`expected one tool, got ${tools.length}`);
  return first;
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

describe('defineAiSdkTools', () => {
  it('takes the name from the key, and the description, zod schema and execute from the tool', async () => {
    const seen: unknown[] = [];
    const lookUp = only(
      defineAiSdkTools({
        look_up_order: tool({
          description: 'Looks an order up by its id.',
          inputSchema: z.object({ orderId: z.string().describe('The order id') }),
          execute: (input, options) => {
            seen.push(input, options.toolCallId, options.abortSignal);
            return { orderId: input.orderId, status: 'shipped' };
          },
        }),
      }),
    );
    expect(lookUp.name).toBe('look_up_order');
    expect(lookUp.description).toBe('Looks an order up by its id.');
    expect(lookUp.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string', description: 'The order id' } },
      required: ['orderId'],
    });
    const parsed = await lookUp.inputSchema.safeParseAsync({ orderId: 'A1' });
    expect(parsed.success).toBe(true);
    const context = callContext('call_7');
    expect(await lookUp.execute(parsed.data, context)).toEqual({ orderId: 'A1', status: 'shipped' });
    expect(seen).toEqual([{ orderId: 'A1' }, 'call_7', context.signal]);
  });

  it('reads a JSON Schema tool and runs its own validate, whose value is the input', async () => {
    const refund = only(
      defineAiSdkTools({
        refund: tool({
          description: 'Refunds an amount.',
          inputSchema: jsonSchema<{ cents: number }>(
            { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] },
            {
              validate: (value) => {
                const { cents } = value as { cents: number };
                return cents > 0
                  ? { success: true, value: { cents: cents * 1 } }
                  : { success: false, error: new Error('cents must be positive') };
              },
            },
          ),
          execute: ({ cents }) => `refunded ${cents}`,
        }),
      }),
    );
    expect(refund.inputJsonSchema).toMatchObject({ type: 'object', required: ['cents'] });
    const wrongType = await refund.inputSchema.safeParseAsync({ cents: 'ten' });
    expect(wrongType.success).toBe(false);
    const refused = await refund.inputSchema.safeParseAsync({ cents: -5 });
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual(['cents must be positive']);
    const parsed = await refund.inputSchema.safeParseAsync({ cents: 250 });
    expect(await refund.execute(parsed.data, callContext())).toBe('refunded 250');
  });

  it('converts a dynamicTool, and a streaming execute gives its last value, heartbeating on each', async () => {
    const progress = only(
      defineAiSdkTools({
        progress: dynamicTool({
          description: 'Reports progress.',
          inputSchema: z.object({ steps: z.number() }),
          execute: async function* (input) {
            const { steps } = input as { steps: number };
            for (let step = 1; step <= steps; step++) yield await Promise.resolve({ done: step, of: steps });
          },
        }),
      }),
    );
    const context = callContext();
    expect(await progress.execute({ steps: 3 }, context)).toEqual({ done: 3, of: 3 });
    expect(context.heartbeats).toBe(3);
  });

  it("passes the call's abort signal on, so an interrupt reaches the tool", async () => {
    const controller = new AbortController();
    const slow = only(
      defineAiSdkTools(
        {
          slow: tool({
            description: 'Waits until aborted.',
            inputSchema: z.object({}),
            execute: (_input, { abortSignal }) =>
              new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(new Error('stopped')))),
          }),
        },
        { metadata: { slow: { interruptBehavior: 'cancel' } } },
      ),
    );
    expect(slow.interruptBehavior).toBe('cancel');
    const running = slow.execute({}, callContext('call_1', controller.signal));
    controller.abort();
    await expect(running).rejects.toThrow('stopped');
  });

  it("takes defineTool's fail-closed defaults where the AI SDK has no word, and metadata where given", async () => {
    const tools: ToolSet = {
      search: tool({ description: 'Searches.', inputSchema: z.object({}), execute: () => [] }),
      wipe: tool({ description: 'Wipes.', inputSchema: z.object({}), execute: () => 'gone' }),
    };
    const [search, wipe] = defineAiSdkTools(tools, { metadata: { search: { concurrency: 'READ_ONLY' } } });
    if (search === undefined || wipe === undefined) throw new Error('expected two tools');
    expect([wipe.concurrency, wipe.requiresPermission, wipe.interruptBehavior]).toEqual(['UNSAFE', true, 'block']);
    expect(wipe.classify({})).toEqual({ concurrencySafe: false, readOnly: false, destructive: true, openWorld: true });
    expect(await wipe.checkPermissions({}, callContext())).toEqual({
      behavior: 'ask',
      message: 'wipe requires permission to run.',
    });
    expect([search.concurrency, search.requiresPermission]).toEqual(['READ_ONLY', false]);
    expect(await search.checkPermissions({}, callContext())).toEqual({ behavior: 'allow' });
  });

  it("honours needsApproval, and the AI SDK's per-tool toolApproval before it", async () => {
    const byAmount = (input: { cents: number }) => input.cents > 1000;
    const tools: ToolSet = {
      transfer: tool({
        description: 'Transfers money.',
        inputSchema: z.object({ cents: z.number() }),
        needsApproval: byAmount,
        execute: () => 'sent',
      }),
      read_balance: tool({
        description: 'Reads the balance.',
        inputSchema: z.object({}),
        needsApproval: false,
        execute: () => 0,
      }),
      close_account: tool({ description: 'Closes the account.', inputSchema: z.object({}), execute: () => 'closed' }),
      rename: tool({ description: 'Renames.', inputSchema: z.object({ to: z.string() }), execute: () => 'ok' }),
    };
    const [transfer, readBalance, closeAccount, rename] = defineAiSdkTools(tools, {
      toolApproval: {
        close_account: { type: 'denied', reason: 'Accounts are closed by the back office.' },
        rename: (input) => ((input as { to: string }).to === 'root' ? 'user-approval' : 'not-applicable'),
      },
    });
    const permission = (subject: AnyTool | undefined, input: unknown) =>
      subject?.checkPermissions(input, callContext());
    expect(await permission(transfer, { cents: 50 })).toEqual({ behavior: 'allow' });
    expect(await permission(transfer, { cents: 5000 })).toEqual({
      behavior: 'ask',
      message: 'transfer needs approval (its needsApproval).',
    });
    expect(await permission(readBalance, {})).toEqual({ behavior: 'allow' });
    expect(await permission(closeAccount, {})).toEqual({
      behavior: 'deny',
      message: 'Accounts are closed by the back office.',
    });
    expect(await permission(rename, { to: 'root' })).toEqual({
      behavior: 'ask',
      message: 'rename needs approval (its toolApproval).',
    });
    // Not applicable: the tool has no needsApproval, so toolrail's fail-closed default asks.
    expect(await permission(rename, { to: 'docs' })).toEqual({
      behavior: 'ask',
      message: 'rename requires permission to run.',
    });
  });

  it('refuses, with a clear error naming the tool, a tool without a schema, execute or description, and a provider tool', () => {
    const noSchema = { description: 'No schema.', execute: () => 1 } as unknown as ToolSet[string];
    const cases: [ToolSet[string], RegExp][] = [
      [noSchema, /"no_schema" cannot be used: it has no inputSchema; give it one/],
      [{ description: 'No execute.', inputSchema: z.object({}) }, /it has no execute function/],
      [{ inputSchema: z.object({}), execute: () => 1 }, /it has no description/],
      [
        { type: 'provider', id: 'openai.web_search', args: {}, inputSchema: z.object({}), isProviderExecuted: true },
        /it is a provider tool \(openai\.web_search\)/,
      ],
    ];
    for (const [subject, message] of cases) {
      const error = thrown(() => defineAiSdkTools({ no_schema: subject }));
      expect(AiSdkToolInvalidError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'AI_SDK_TOOL_INVALID', toolName: 'no_schema' });
      expect((error as Error).message).toMatch(message);
    }
  });

  it('refuses metadata for a tool the set lacks, and a name defineTool refuses', () => {
    const tools: ToolSet = { search: tool({ description: 'S.', inputSchema: z.object({}), execute: () => 1 }) };
    const misspelt = thrown(() => defineAiSdkTools(tools, { metadata: { serch: { concurrency: 'READ_ONLY' } } }));
    expect((misspelt as Error).message).toBe(
      'AI SDK tool "serch" cannot be used: metadata names it, but the tool set has no such tool',
    );
    const badName = thrown(() =>
      defineAiSdkTools({ 'look up': tool({ description: 'S.', inputSchema: z.object({}), execute: () => 1 }) }),
    );
    expect(ToolDefinitionError.isInstance(badName)).toBe(true);
  });
});
