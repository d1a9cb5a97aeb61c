import { z } from 'zod';
import { defineTool, ToolExecutionError } from 'toolrail';
import type { AnyTool } from 'toolrail';

/** Orders the demo desk knows, by id. */
const orders = new Map([
  ['ORD-1001', { customer: 'ada@example.com', amount: 42, eligible: true, reason: 'within 30 days' }],
  ['ORD-1002', { customer: 'ada@example.com', amount: 310, eligible: false, reason: 'past the 30-day window' }],
  ['ORD-2001', { customer: 'grace@example.com', amount: 99, eligible: true, reason: 'damaged on arrival' }],
]);

/** Options of {@link createSupportDeskTools}. */
export interface SupportDeskToolOptions {
  /** How long `search_knowledge_base` takes, in ms (the demo interrupts it). Defaults to 3 000. */
  searchDelayMs?: number;
  /** Called whenever a refund is issued (tests count executions of the destructive tool). */
  onRefund?: (orderId: string, idempotencyKey: string) => void;
}

/**
 * The demo support desk: customers, tickets and refunds. Ticket ids and refunds live in this
 * worker's memory; the rules (see `support-desk-rules.yaml`) decide the order they may be used in.
 */
export function createSupportDeskTools(options: SupportDeskToolOptions = {}): AnyTool[] {
  const tickets = new Map<
    string,
    { customer: string; subject: string; assignee?: string; status: 'open' | 'closed' }
  >();
  const refundsByKey = new Map<string, { refund_id: string; order_id: string; amount: number }>();
  const searchDelayMs = options.searchDelayMs ?? 3_000;

  const lookupCustomer = defineTool({
    name: 'lookup_customer',
    description: 'Finds a customer by email and lists their orders.',
    inputSchema: z.object({ email: z.string().describe('The customer email address') }),
    concurrency: 'READ_ONLY',
    execute: ({ email }) => ({
      email,
      orders: [...orders]
        .filter(([, order]) => order.customer === email)
        .map(([id, order]) => ({ order_id: id, amount: order.amount })),
    }),
  });

  const searchKnowledgeBase = defineTool({
    name: 'search_knowledge_base',
    description: 'Searches the help-centre articles. Slow; the user may interrupt it.',
    inputSchema: z.object({ query: z.string() }),
    concurrency: 'READ_ONLY',
    interruptBehavior: 'cancel',
    heartbeatTimeoutMs: 5_000,
    execute: async ({ query }, context) => {
      const deadline = Date.now() + searchDelayMs;
      while (Date.now() < deadline) {
        context.signal.throwIfAborted();
        context.heartbeat({ query });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { query, articles: [{ title: 'Refund policy', summary: 'Orders can be refunded within 30 days.' }] };
    },
  });

  const createTicket = defineTool({
    name: 'create_ticket',
    description: 'Opens a support ticket for a customer. Returns its ticket_id.',
    inputSchema: z.object({ customer: z.string(), subject: z.string() }),
    concurrency: 'WRITE_EXCLUSIVE',
    isDestructive: () => false,
    requiresPermission: false,
    execute: ({ customer, subject }, { idempotencyKey }) => {
      const ticketId = `T-${(tickets.size + 1).toString().padStart(4, '0')}`;
      const existing = [...tickets].find(([, ticket]) => ticket.subject === `${subject}#${idempotencyKey}`);
      if (existing) return { ticket_id: existing[0] };
      tickets.set(ticketId, { customer, subject: `${subject}#${idempotencyKey}`, status: 'open' });
      return { ticket_id: ticketId };
    },
  });

  const assignTicket = defineTool({
    name: 'assign_ticket',
    description: 'Assigns a ticket to a support agent.',
    inputSchema: z.object({ ticket_id: z.string(), agent: z.string() }),
    concurrency: 'WRITE_EXCLUSIVE',
    isDestructive: () => false,
    requiresPermission: false,
    execute: ({ ticket_id, agent }) => {
      const ticket = tickets.get(ticket_id);
      if (!ticket) throw new ToolExecutionError({ message: `ticket ${ticket_id} not found` });
      ticket.assignee = agent;
      return { ticket_id, assignee: agent };
    },
  });

  const checkEligibility = defineTool({
    name: 'check_eligibility',
    description: 'Checks whether an order can be refunded.',
    inputSchema: z.object({ order_id: z.string() }),
    concurrency: 'READ_ONLY',
    execute: ({ order_id }) => {
      const order = orders.get(order_id);
      if (!order) return { order_id, eligible: false, reason: 'unknown order' };
      return { order_id, eligible: order.eligible, reason: order.reason };
    },
  });

  const issueRefund = defineTool({
    name: 'issue_refund',
    description: 'Refunds an order in full. Irreversible: needs a human approval.',
    inputSchema: z.object({ order_id: z.string(), amount: z.number().positive() }),
    concurrency: 'WRITE_EXCLUSIVE',
    interruptBehavior: 'block',
    execute: ({ order_id, amount }, { idempotencyKey }) => {
      const done = refundsByKey.get(idempotencyKey);
      if (done) return done;
      const refund = { refund_id: `R-${refundsByKey.size + 1}`, order_id, amount };
      refundsByKey.set(idempotencyKey, refund);
      options.onRefund?.(order_id, idempotencyKey);
      return refund;
    },
  });

  const closeTicket = defineTool({
    name: 'close_ticket',
    description: 'Closes a ticket with a final note to the customer. Ends the conversation turn.',
    inputSchema: z.object({ ticket_id: z.string(), note: z.string() }),
    concurrency: 'WRITE_EXCLUSIVE',
    isDestructive: () => false,
    requiresPermission: false,
    execute: ({ ticket_id, note }) => {
      const ticket = tickets.get(ticket_id);
      if (!ticket) throw new ToolExecutionError({ message: `ticket ${ticket_id} not found` });
      ticket.status = 'closed';
      return { ticket_id, status: 'closed', note };
    },
  });

  return [lookupCustomer, searchKnowledgeBase, createTicket, assignTicket, checkEligibility, issueRefund, closeTicket];
}
