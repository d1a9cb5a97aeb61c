import { renderTranscriptEntry } from 'toolrail';
import type { SessionHandle } from 'toolrail';

const pollMs = 250;
const interruptMessage = 'Skip the knowledge base, the customer is waiting: just refund ORD-1001 and close the ticket.';

/**
 * Prints the session turn by turn while playing the human: interrupts the slow knowledge-base
 * search once, and approves each refund that waits for approval. Resolves once the session is idle
 * after the interrupt's follow-up run.
 */
export async function followDemoSession(session: SessionHandle, log: (line: string) => void): Promise<true> {
  let printed = 0;
  let interrupted = false;
  const approved = new Set<string>();
  for (;;) {
    const [state, status] = await Promise.all([session.ruleState(), session.status()]);
    const transcript = await session.transcript();
    for (const entry of transcript.slice(printed)) log(renderTranscriptEntry(entry));
    printed = transcript.length;
    if (!interrupted && state.runningCalls.some((call) => call.toolName === 'search_knowledge_base')) {
      interrupted = true;
      log(`  >>> the user interrupts: "${interruptMessage}"`);
      await session.interrupt(interruptMessage);
    }
    for (const approval of state.pendingApprovals) {
      if (approved.has(approval.callId)) continue;
      approved.add(approval.callId);
      log(`  >>> a human approves ${approval.toolName}(${JSON.stringify(approval.input)}) — ${approval.reason}`);
      await session.approve(approval.callId, 'approved by the demo operator');
    }
    const done =
      status.status === 'idle' &&
      status.queuedMessages === 0 &&
      status.counters.runs >= (interrupted ? 2 : 1) &&
      status.lastRunEnd !== null;
    if (done && (interrupted || status.lastRunEnd !== 'interrupted')) return true;
    if (status.status === 'completed') return true;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
