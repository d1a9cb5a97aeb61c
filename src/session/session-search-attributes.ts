import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  toolrailBlockedCallsKey,
  toolrailLastToolKey,
  toolrailPendingApprovalsKey,
  toolrailStatusKey,
} from './search-attributes';
import type { SessionStatus } from './session-status';

/** What a session shows in its search attributes. */
export interface SessionSearchValues {
  status: SessionStatus;
  lastTool: string | null;
  blockedCalls: number;
  pendingApprovals: number;
}

/**
 * The search attribute updates that show `values` (the last tool is removed while there is none):
 * all of them, or with `shown` (what the attributes show now) only those that differ from it.
 */
export function sessionSearchAttributes(
  values: SessionSearchValues,
  shown?: SessionSearchValues,
): SearchAttributeUpdatePair[] {
  const pairs: SearchAttributeUpdatePair[] = [];
  if (values.status !== shown?.status) pairs.push({ key: toolrailStatusKey, value: values.status });
  if (shown === undefined || values.lastTool !== shown.lastTool)
    pairs.push({ key: toolrailLastToolKey, value: values.lastTool });
  if (values.blockedCalls !== shown?.blockedCalls)
    pairs.push({ key: toolrailBlockedCallsKey, value: values.blockedCalls });
  if (values.pendingApprovals !== shown?.pendingApprovals)
    pairs.push({ key: toolrailPendingApprovalsKey, value: values.pendingApprovals });
  return pairs;
}
