import { renderFeedEvent } from 'toolrail';
import type { SessionHandle } from 'toolrail';

const interruptMessage = 'Skip the knowledge base, the customer is waiting: just refund ORD-1001 and close the ticket.';

/**
 * Prints the session as it happens, from its live feed, while playing the human: interrupts the
 * slow knowledge-base search once it starts, and approves each refund that waits for approval.
 * Resolves once the run the interrupt started has ended (or the session ended).
 */
export async function followDemoSession(session: SessionHandle, log: (line: string) => void): Promise<true> {
  let interruptedInRun: number | undefined;
  for await (const event of session.events()) {
    const line = renderFeedEvent(event);
    if (line !== undefined) log(line);
    if (event.type === 'tool_started' && event.tool === 'search_knowledge_base' && interruptedInRun === undefined) {
      interruptedInRun = event.run;
      log(`  >>> the user interrupts: "${interruptMessage}"`);
      await session.interrupt(interruptMessage);
    }
    if (event.type === 'approvals_requested') {
      for (const approval of event.approvals) {
        log(`  >>> a human approves ${approval.tool} — ${approval.reason}`);
        await session.approve(approval.callId, 'approved by the demo operator');
      }
    }
    // Done once the run after the interrupt has ended (or the first run, had nothing been interrupted).
    if (event.type === 'run_ended' && event.reason !== 'interrupted' && event.run > (interruptedInRun ?? 0))
      return true;
  }
  return true;
}
