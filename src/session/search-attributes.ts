import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Session status: `running`, `awaiting_approval`, `completed`, `failed`. Filter with `ToolrailStatus="running"`. */
export const toolrailStatusKey = defineSearchAttributeKey('ToolrailStatus', SearchAttributeType.KEYWORD);

/** Name of the tool that ran last in the session. */
export const toolrailLastToolKey = defineSearchAttributeKey('ToolrailLastTool', SearchAttributeType.KEYWORD);

/** How many proposed calls the rules refused so far in the session. */
export const toolrailBlockedCallsKey = defineSearchAttributeKey('ToolrailBlockedCalls', SearchAttributeType.INT);

/** How many tool calls wait for a human decision right now. */
export const toolrailPendingApprovalsKey = defineSearchAttributeKey(
  'ToolrailPendingApprovals',
  SearchAttributeType.INT,
);

/** Every search attribute toolrail sets, to register on a server (`--search-attribute Name=Type`). */
export const toolrailSearchAttributes = [
  toolrailStatusKey,
  toolrailLastToolKey,
  toolrailBlockedCallsKey,
  toolrailPendingApprovalsKey,
] as const;
