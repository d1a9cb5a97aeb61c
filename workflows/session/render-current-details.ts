import { narrow } from '../../src/rules';
import type { SessionContext } from './session-context';

const maxHiddenListed = 6;

/**
 * A short Markdown summary of the rule state for the Temporal UI's current details, a few
 * paragraphs at most since the UI shows it in a small box (the `ruleState` query has everything):
 * status and counters, calls waiting for approval, visible tools, and hidden tools with the first
 * reason of each (up to six). Between runs it says the session waits for a user message.
 */
export function renderCurrentDetails(context: SessionContext): string {
  const { counters } = context;
  const paragraphs = [
    `**toolrail session** · status \`${context.status}\` · turn ${counters.turns} · ${counters.toolCalls} tool calls · ${counters.blockedCalls} blocked`,
  ];
  for (const approval of context.pendingApprovals.values()) {
    paragraphs.push(
      `**Waiting for approval**: \`${approval.toolName}\` call \`${approval.callId}\`: ${approval.reason}`,
    );
  }
  if (!context.runInProgress) {
    const lastRun = context.lastRunEnd ? ` (last run ended: \`${context.lastRunEnd}\`)` : '';
    paragraphs.push(`No run in progress${lastRun}: waiting for a user message.`);
    return paragraphs.join('\n\n');
  }
  const { visible, hidden } = narrow(context.rules, context.ruleState, context.catalogNames());
  paragraphs.push(
    `**Visible tools (${visible.length})**: ${visible.map((name) => `\`${name}\``).join(', ') || '_none_'}`,
  );
  if (hidden.length > 0) {
    const listed = hidden.slice(0, maxHiddenListed).map(({ tool, reasons }) => {
      const first = reasons[0];
      const callFirst = first?.callFirst?.length ? `, call first: ${first.callFirst.join(', ')}` : '';
      return `\`${tool}\` (${first?.code ?? 'hidden'}${callFirst})`;
    });
    const more =
      hidden.length > maxHiddenListed ? `, and ${hidden.length - maxHiddenListed} more (see the ruleState query)` : '';
    paragraphs.push(`**Hidden tools (${hidden.length})**: ${listed.join(', ')}${more}`);
  }
  return paragraphs.join('\n\n');
}
