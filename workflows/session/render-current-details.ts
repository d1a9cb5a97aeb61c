import { narrow } from '../../src/rules';
import type { SessionContext } from './session-context';

const maxHiddenListed = 12;

/** A short Markdown summary of the rule state, for the Temporal UI's current details. */
export function renderCurrentDetails(context: SessionContext): string {
  const catalog = context.catalogNames();
  const { visible, hidden } = narrow(context.rules, context.ruleState, catalog);
  const lines = [
    `**toolrail session** · status \`${context.status}\` · turn ${context.counters.turns} · ${context.counters.toolCalls} tool calls · ${context.counters.blockedCalls} blocked`,
    '',
    `**Visible tools (${visible.length})**: ${visible.length ? visible.map((name) => `\`${name}\``).join(', ') : '_none_'}`,
  ];
  if (hidden.length > 0) {
    lines.push('', `**Hidden tools (${hidden.length})**`, '');
    for (const { tool, reasons } of hidden.slice(0, maxHiddenListed)) {
      const first = reasons[0];
      const callFirst = first?.callFirst?.length ? ` (call first: ${first.callFirst.join(' → ')})` : '';
      lines.push(`- \`${tool}\`: ${first ? `${first.code}${callFirst}` : 'hidden'}`);
    }
    if (hidden.length > maxHiddenListed) lines.push(`- … and ${hidden.length - maxHiddenListed} more (run the ruleState query)`);
  }
  if (context.pendingApprovals.size > 0) {
    lines.push('', `**Waiting for approval**`, '');
    for (const approval of context.pendingApprovals.values()) {
      lines.push(`- \`${approval.toolName}\` call \`${approval.callId}\`: ${approval.reason}`);
    }
  }
  if (context.lastRunEnd) lines.push('', `Last run ended: \`${context.lastRunEnd}\``);
  return lines.join('\n');
}
