import type { ModelRequest } from 'toolrail';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from 'toolrail/testing';
import type { ScriptedModel } from 'toolrail/testing';

const customer = 'ada@example.com';

/** The ticket id the latest `create_ticket` result in the conversation holds. */
function createdTicketId(request: ModelRequest): string {
  for (const message of [...request.messages].reverse()) {
    if (message.role === 'tool' && message.toolName === 'create_ticket' && !message.isError) {
      const parsed = JSON.parse(message.content) as { ticket_id?: string };
      if (parsed.ticket_id) return parsed.ticket_id;
    }
  }
  return 'T-0001';
}

/**
 * The demo's scripted model: a support agent that makes the mistakes the rules exist for, one turn
 * at a time (responses are picked by turn, so a restarted worker gives the same answers):
 *  0. checks eligibility before looking the customer up (refused: call lookup_customer first);
 *  1. looks the customer up and starts a slow knowledge-base search (the demo interrupts it);
 *  2. after the interrupt: checks eligibility of ORD-1001 (eligible);
 *  3. tries to refund ORD-1002 instead (refused: eligibility was checked for another order);
 *  4. refunds ORD-1001 (waits for a human approval);
 *  5. opens a ticket; 6. closes it (a terminal tool: the run ends).
 */
export function supportDeskScript(): ScriptedModel {
  return createScriptedModel([
    toolCallResponse(
      'check_eligibility',
      { order_id: 'ORD-1001' },
      { text: 'Let me check whether ORD-1001 can be refunded.' },
    ),
    parallelToolCallsResponse(
      [
        { name: 'lookup_customer', args: { email: customer } },
        { name: 'search_knowledge_base', args: { query: 'refund policy for damaged items' } },
      ],
      { text: 'Looking up the customer and the refund policy.' },
    ),
    toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }),
    toolCallResponse('issue_refund', { order_id: 'ORD-1002', amount: 310 }, { text: 'Refunding the order.' }),
    toolCallResponse(
      'issue_refund',
      { order_id: 'ORD-1001', amount: 42 },
      { text: 'Sorry, ORD-1001 is the one to refund.' },
    ),
    toolCallResponse('create_ticket', { customer, subject: 'Refund for ORD-1001 (damaged)' }),
    (request) =>
      toolCallResponse('close_ticket', {
        ticket_id: createdTicketId(request),
        note: 'ORD-1001 was refunded in full (42 EUR).',
      }),
    textResponse('All done: ORD-1001 is refunded and the ticket is closed.'),
  ]);
}
