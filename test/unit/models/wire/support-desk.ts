import type { ModelRequest, ModelToolSpec } from '../../../../src/models';

/** The support-desk tools the wire tests offer the model. */
export const supportDeskTools: ModelToolSpec[] = [
  {
    name: 'create_ticket',
    description: 'Open a support ticket.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, priority: { type: 'string', enum: ['low', 'normal', 'high'] } },
      required: ['title', 'priority'],
      additionalProperties: false,
    },
  },
  {
    name: 'assign_ticket',
    description: 'Assign an existing ticket to an agent.',
    inputSchema: {
      type: 'object',
      properties: { ticketId: { type: 'string' }, assignee: { type: 'string' } },
      required: ['ticketId'],
    },
  },
];

/** The first request of the ticket flow: the user asks for something that needs both tools. */
export function ticketRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    system: 'You are a support desk agent.',
    messages: [{ role: 'user', text: 'The printer is on fire. File a high-priority ticket and give it to Dana.' }],
    tools: supportDeskTools,
    turn: 0,
    ...overrides,
  };
}

/** What a refused `assign_ticket` call tells the model. */
export const refusalText = 'assign_ticket was refused: call create_ticket first.';
