import type { NarrowResult } from '../rules';
import type { SessionCounters } from './session-input';
import type { RunEndReason, SessionStatus } from './session-status';
import type { PendingApproval, UnavailableTool } from './session-views';
import type { StoreProblem } from './store-problem';

/** What the current-details summary shows. */
export interface CurrentDetailsView {
  status: SessionStatus;
  counters: SessionCounters;
  pendingApprovals: readonly PendingApproval[];
  lastRunEnd: RunEndReason | null;
  runInProgress: boolean;
  /** The rules' narrowing of this turn's catalog, computed only when a run is in progress. */
  narrowed: () => Pick<NarrowResult, 'visible' | 'hidden' | 'shadowHidden'>;
  /** The latest notices, oldest first (the transcript has them all). */
  notices?: readonly string[];
  /** Why the session waits for its content store, while it does. */
  storeProblem?: StoreProblem;
  /** Tools of the latest turn's catalog that cannot run now (their MCP server is down), with the reason. */
  unavailableTools?: readonly UnavailableTool[];
}

const maxHiddenListed = 6;
const maxReasonsListed = 3;

/**
 * A short Markdown summary for the Temporal UI's current details (the `ruleState` query has
 * everything): status and counters, calls waiting for approval, the tools that cannot run now
 * with the reason, and during a run the visible tools and up to six hidden ones with the first
 * reason of each (and of the visible ones shadow rules would hide).
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
  for (const notice of view.notices ?? []) paragraphs.push(`**Notice**: ${notice.replace(/^\[toolrail\] /, '')}`);
  if (view.status !== 'completed' && view.status !== 'failed') paragraphs.push(...unavailableParagraphs(view));
  const lastRun = view.lastRunEnd ? ` (last run ended: \`${view.lastRunEnd}\`)` : '';
  if (view.status === 'completed' || view.status === 'failed') {
    paragraphs.push(`The session has ended${lastRun}; it takes no more messages.`);
    return paragraphs.join('\n\n');
  }
  if (!view.runInProgress) {
    paragraphs.push(`No run in progress${lastRun}: waiting for a user message.`);
    return paragraphs.join('\n\n');
  }
  const { visible, hidden, shadowHidden } = view.narrowed();
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
  if (shadowHidden !== undefined && shadowHidden.length > 0) paragraphs.push(shadowParagraph(shadowHidden));
  return paragraphs.join('\n\n');
}

/** The visible tools shadow rules would hide, up to six, with the first reason of each: they are not hidden. */
function shadowParagraph(shadowHidden: NonNullable<NarrowResult['shadowHidden']>): string {
  const listed = shadowHidden
    .slice(0, maxHiddenListed)
    .map(
      ({ tool, reasons }) => `\`${tool}\` (${reasons[0]?.code ?? 'hidden'}, rule \`${reasons[0]?.rule.id ?? '?'}\`)`,
    );
  const more = shadowHidden.length > maxHiddenListed ? `, and ${shadowHidden.length - maxHiddenListed} more` : '';
  return `**Shadow rules would hide (${shadowHidden.length}; not enforced)**: ${listed.join(', ')}${more}`;
}

/**
 * The tools that cannot run now, one paragraph per reason (a server that is down makes all its
 * tools unavailable for one reason): up to three reasons, six tools each, the reason on one line
 * and cut to 300 characters (the `ruleState` query has everything).
 */
function unavailableParagraphs({ unavailableTools = [] }: CurrentDetailsView): string[] {
  const byReason = new Map<string, string[]>();
  for (const { toolName, reason } of unavailableTools)
    byReason.set(reason, [...(byReason.get(reason) ?? []), toolName]);
  const paragraphs = [...byReason].slice(0, maxReasonsListed).map(([reason, tools]) => {
    const more = tools.length > maxHiddenListed ? `, and ${tools.length - maxHiddenListed} more` : '';
    const names = `${tools
      .slice(0, maxHiddenListed)
      .map((name) => `\`${name}\``)
      .join(', ')}${more}`;
    const line = reason.replace(/\s+/g, ' ').trim();
    return `**Unavailable now (${tools.length} ${tools.length === 1 ? 'tool' : 'tools'})**: ${names}: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}`;
  });
  const rest = [...byReason.values()].slice(maxReasonsListed).flat().length;
  if (rest > 0) paragraphs.push(`**Unavailable now**: ${rest} more tools for other reasons (see the ruleState query)`);
  return paragraphs;
}
