import { dynamicTool, jsonSchema, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAiSdkTools } from '../../../src/ai-sdk';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { outline, toolResultOf } from '../../helpers/transcript-entries';

describe('AI SDK tools in a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('runs tool() and dynamicTool() objects unchanged: the rules read their outputs, and needsApproval asks a human', async () => {
    const lookedUp: { orderId: string; signalled: boolean }[] = [];
    const refunded: unknown[] = [];
    // The AI SDK tools, exactly as an AI SDK app writes them.
    const aiSdkTools = {
      look_up_order: tool({
        description: 'Looks an order up by its id.',
        inputSchema: z.object({ orderId: z.string() }),
        execute: ({ orderId }, { abortSignal }) => {
          lookedUp.push({ orderId, signalled: abortSignal instanceof AbortSignal });
          return { orderId, eligible: orderId === 'A1' };
        },
      }),
      refund: dynamicTool({
        description: 'Refunds an order.',
        inputSchema: jsonSchema({
          type: 'object',
          properties: { orderId: { type: 'string' } },
          required: ['orderId'],
        }),
        needsApproval: true,
        execute: (input) => {
          refunded.push(input);
          return { refunded: (input as { orderId: string }).orderId };
        },
      }),
    };
    const tools = defineAiSdkTools(aiSdkTools, { metadata: { look_up_order: { concurrency: 'READ_ONLY' } } });
    const rules = compileRules({
      toolrail: 1,
      rules: [
        {
          kind: 'precondition',
          tool: 'refund',
          requires_prior_tool: 'look_up_order',
          with_output: [{ path: '$.eligible', equals: true }],
        },
      ],
    });
    const model = createScriptedModel([
      toolCallResponse('refund', { orderId: 'A1' }, { id: 'refund_early' }),
      toolCallResponse('look_up_order', { orderId: 'A1' }, { id: 'look_1' }),
      toolCallResponse('refund', { orderId: 'A1' }, { id: 'refund_1' }),
      textResponse('Refunded A1.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { desk: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('ai-sdk-tools'),
        rules,
        model: { provider: 'scripted', model: 'desk' },
        firstMessage: 'Refund order A1.',
        limits: { closeWhenIdle: true },
      });
      const waiting = await pollUntil(
        () => session.ruleState(),
        (state) => state.pendingApprovals.some((pending) => pending.callId === 'refund_1'),
      );
      expect(waiting.pendingApprovals).toEqual([
        expect.objectContaining({ callId: 'refund_1', reason: 'refund needs approval (its needsApproval).' }),
      ]);
      expect(refunded).toEqual([]);
      await session.approve('refund_1');

      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 2 } });
      const transcript = await session.transcript();
      expect(outline(transcript)).toEqual([
        'user:Refund order A1.',
        'model:refund#refund_early',
        'verdict:refund#refund_early:blocked',
        'tool:refund#refund_early:RULE_BLOCKED',
        'model:look_up_order#look_1',
        'verdict:look_up_order#look_1:allowed',
        'tool:look_up_order#look_1:ok',
        'model:refund#refund_1',
        'verdict:refund#refund_1:allowed',
        'approval:refund#refund_1:approved',
        'tool:refund#refund_1:ok',
        'model:text',
        'run-end:answered',
      ]);
      expect(JSON.parse(toolResultOf(transcript, 'look_1').content)).toEqual({ orderId: 'A1', eligible: true });
      expect(JSON.parse(toolResultOf(transcript, 'refund_1').content)).toEqual({ refunded: 'A1' });
      expect(lookedUp).toEqual([{ orderId: 'A1', signalled: true }]);
      expect(refunded).toEqual([{ orderId: 'A1' }]);
    });
  });
});
