import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { createSupportDeskTools } from '../../../examples/support-desk/support-desk-tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

const rulesFile = path.resolve(__dirname, '../../../examples/support-desk/support-desk-rules.yaml');

describe('a session on the support desk rules', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('refuses assign before create with callFirst, and finishes once the model corrects itself', async () => {
    const model = createScriptedModel([
      toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
      toolCallResponse('create_ticket', { customer: 'ada@example.com', subject: 'Broken mug' }),
      toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
      textResponse('Ticket T-0001 is assigned to Sam.'),
    ]);
    const rules = compileRules(readFileSync(rulesFile, 'utf8'), { file: rulesFile });
    await withSessionWorker(
      { connections, tools: createSupportDeskTools(), scriptedModels: { tickets: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('ticket-flow'),
          rules,
          model: { provider: 'scripted', model: 'tickets' },
          firstMessage: 'Open a ticket for ada@example.com and assign it to Sam.',
          limits: { closeWhenIdle: true },
        });
        const final = await session.result();
        expect(final.lastRunEnd).toBe('answered');
        expect(final.counters).toMatchObject({ turns: 4, toolCalls: 2, blockedCalls: 1 });

        const transcript = await session.workflow.query<{ entries: { kind: string }[] }>('transcript');
        const verdicts = transcript.entries.filter((entry) => entry.kind === 'verdict');
        expect(verdicts).toEqual([
          expect.objectContaining({
            tool: 'assign_ticket',
            verdict: 'blocked',
            reasons: [expect.objectContaining({ code: 'prerequisite_not_met', callFirst: ['create_ticket'] })],
          }),
          expect.objectContaining({ tool: 'create_ticket', verdict: 'allowed' }),
          expect.objectContaining({ tool: 'assign_ticket', verdict: 'allowed' }),
        ]);
        // The model was told, in the refused call's result, what to call first.
        const secondRequest = model.requests[1];
        const refusal = secondRequest?.messages.find((message) => message.role === 'tool');
        expect(refusal).toMatchObject({ role: 'tool', isError: true, toolName: 'assign_ticket' });
        expect(refusal && 'content' in refusal ? refusal.content : '').toMatch(
          /RULE_BLOCKED[\s\S]*Call first: create_ticket/,
        );
      },
    );
  });
});
