import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import {
  toolrailBlockedCallsKey,
  toolrailLastToolKey,
  toolrailPendingApprovalsKey,
  toolrailStatusKey,
} from '../../src/session/search-attributes';
import { renderCurrentDetails } from './render-current-details';
import type { SessionContext } from './session-context';

const published = new WeakMap<SessionContext, string>();

/**
 * Shows the session's state in the Temporal UI: the search attributes (status, last tool,
 * blocked calls, pending approvals), upserted only when they changed, and the current-details
 * Markdown summary of the rule state.
 */
export function publishSessionState(context: SessionContext): void {
  const values = {
    status: context.status,
    lastTool: context.lastTool ?? '',
    blocked: context.counters.blockedCalls,
    pending: context.pendingApprovals.size,
  };
  const fingerprint = JSON.stringify(values);
  if (published.get(context) !== fingerprint) {
    published.set(context, fingerprint);
    upsertSearchAttributes([
      { key: toolrailStatusKey, value: values.status },
      { key: toolrailLastToolKey, value: values.lastTool === '' ? null : values.lastTool },
      { key: toolrailBlockedCallsKey, value: values.blocked },
      { key: toolrailPendingApprovalsKey, value: values.pending },
    ]);
  }
  setCurrentDetails(renderCurrentDetails(context));
}
