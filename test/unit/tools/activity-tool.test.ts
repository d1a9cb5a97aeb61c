import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { activityTool, ToolDefinitionError, ToolRegistry, prepareToolCall } from '../../../src/tools';

const chargeCard = activityTool({
  name: 'charge_card',
  description: 'Charges a card.',
  inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int() }),
  activity: { activityType: 'chargeCard', taskQueue: 'payments' },
  timeoutMs: 30_000,
  retry: { maximumAttempts: 5 },
});

describe('activityTool', () => {
  it('prepares a call that names the activity, fail-closed like any tool: destructive, at most once, approval asked', async () => {
    const registry = new ToolRegistry([chargeCard]);
    const prepared = await prepareToolCall({
      call: { id: 'c1', name: 'charge_card', args: { orderId: 'ORD-1', amountCents: 100 } },
      registry,
      context: { sessionId: 's', interactive: true },
    });
    expect(prepared).toMatchObject({
      type: 'prepared-call',
      destructive: true,
      concurrencySafe: false,
      permission: 'ask',
      execution: {
        timeoutMs: 30_000,
        heartbeatTimeoutMs: null,
        retry: { maximumAttempts: 1 },
        activity: { activityType: 'chargeCard', taskQueue: 'payments' },
      },
    });
    if (prepared.type !== 'prepared-call') throw new Error('not prepared');
    // The call crosses history as plain JSON, its activity target with it.
    expect(JSON.parse(JSON.stringify(prepared))).toEqual(prepared);
  });

  it('refuses a definition without the activity it schedules', () => {
    expect(() =>
      activityTool({
        name: 'nothing',
        description: 'No activity.',
        inputSchema: z.object({}),
        activity: { activityType: '' },
      }),
    ).toThrow(ToolDefinitionError);
  });

  it('never runs in process: its execute says that the session schedules the activity', async () => {
    await expect(chargeCard.execute({ orderId: 'ORD-1', amountCents: 1 }, {} as never)).rejects.toThrow(
      /is the activity chargeCard: the session schedules it/,
    );
  });
});
