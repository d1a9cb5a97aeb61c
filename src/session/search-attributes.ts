import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Session status (see `SessionStatus`). Filter with `ToolrailStatus="awaiting_approval"`. */
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

/** Tokens the session's model calls used so far (input plus output, as the providers reported them). */
export const toolrailTotalTokensKey = defineSearchAttributeKey('ToolrailTotalTokens', SearchAttributeType.INT);

/**
 * Every search attribute toolrail sets, to register on a server (`--search-attribute Name=Type`).
 * The one list: the dev server's flags come from it, and tests check the compose file's job and
 * the README against it.
 */
export const toolrailSearchAttributes = [
  toolrailStatusKey,
  toolrailLastToolKey,
  toolrailBlockedCallsKey,
  toolrailPendingApprovalsKey,
  toolrailTotalTokensKey,
] as const;
