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

/** The search attribute updates that show `values` (the last tool is removed while there is none). */
export function sessionSearchAttributes(values: SessionSearchValues): SearchAttributeUpdatePair[] {
  return [
    { key: toolrailStatusKey, value: values.status },
    { key: toolrailLastToolKey, value: values.lastTool },
    { key: toolrailBlockedCallsKey, value: values.blockedCalls },
    { key: toolrailPendingApprovalsKey, value: values.pendingApprovals },
  ];
}
