import type { NarrowResult } from '../rules';
import type { SessionCounters } from './session-input';
import type { RunEndReason, SessionStatus } from './session-status';
import type { PendingApproval } from './session-views';
import type { StoreProblem } from './store-problem';

/** What the current-details summary shows. */
export interface CurrentDetailsView {
  status: SessionStatus;
  counters: SessionCounters;
  pendingApprovals: readonly PendingApproval[];
  lastRunEnd: RunEndReason | null;
  runInProgress: boolean;
  /** The rules' narrowing of this turn's catalog, computed only when a run is in progress. */
  narrowed: () => Pick<NarrowResult, 'visible' | 'hidden'>;
  /** Why the session waits for its content store, while it does. */
  storeProblem?: StoreProblem;
}

const maxHiddenListed = 6;

/**
 * A short Markdown summary for the Temporal UI's current details (the `ruleState` query has
 * everything): status and counters, calls waiting for approval, and during a run the visible tools
 * and up to six hidden ones with the first reason of each.
 */
export function renderCurrentDetails(view: CurrentDetailsView): string {
  const { counters } = view;
  const paragraphs = [
    `**toolrail session** · status \`${view.status}\` · turn ${counters.turns} · ${counters.toolCalls} tool calls · ${counters.blockedCalls} blocked`,
  ];
  if (view.storeProblem !== undefined) {
    const { code, message } = view.storeProblem;
    paragraphs.push(
      `**Waiting for the content store** (\`${code}\`): ${message} The session goes on where it was once the store is back; messages sent meanwhile are kept.`,
    );
  }
  for (const approval of view.pendingApprovals) {
    paragraphs.push(
      `**Waiting for approval**: \`${approval.toolName}\` call \`${approval.callId}\`: ${approval.reason}`,
    );
  }
  const lastRun = view.lastRunEnd ? ` (last run ended: \`${view.lastRunEnd}\`)` : '';
  if (view.status === 'completed' || view.status === 'failed') {
    paragraphs.push(`The session has ended${lastRun}; it takes no more messages.`);
    return paragraphs.join('\n\n');
  }
  if (!view.runInProgress) {
    paragraphs.push(`No run in progress${lastRun}: waiting for a user message.`);
    return paragraphs.join('\n\n');
  }
  const { visible, hidden } = view.narrowed();
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
