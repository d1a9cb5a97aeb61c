import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { SearchAttributePair, SearchAttributeUpdatePair } from '@temporalio/common';
import type { ListedSessionStatus } from './session-status';
import type { SessionCounters } from './session-counters';
import type { SessionUsage } from './model-usage';
import { totalTokens } from './model-usage';

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

/** What of a session its search attributes show. */
export interface SessionSearchSource {
  /** Its listed status. */
  status: ListedSessionStatus;
  lastTool: string | null;
  counters: SessionCounters;
  pendingApprovals: readonly unknown[];
  usage: SessionUsage;
}

/**
 * The search attribute updates that show a session: its status, last tool (removed while there is
 * none), blocked calls, calls waiting for approval, and total tokens.
 */
export function sessionSearchAttributes(session: SessionSearchSource): SearchAttributeUpdatePair[] {
  return [
    { key: toolrailStatusKey, value: session.status },
    { key: toolrailLastToolKey, value: session.lastTool },
    { key: toolrailBlockedCallsKey, value: session.counters.blockedCalls },
    { key: toolrailPendingApprovalsKey, value: session.pendingApprovals.length },
    { key: toolrailTotalTokensKey, value: totalTokens(session.usage.session) },
  ];
}

/**
 * The search attributes a session starts with (no tool yet, every count zero; `running` when it
 * starts with a message, which it runs at once, else `idle`): what `ToolrailClient` starts it
 * with, so its workflow upserts none of them until they change.
 */
export function newSessionSearchAttributes({ running }: { running: boolean }): SearchAttributePair[] {
  return [
    { key: toolrailStatusKey, value: running ? 'running' : 'idle' },
    { key: toolrailBlockedCallsKey, value: 0 },
    { key: toolrailPendingApprovalsKey, value: 0 },
    { key: toolrailTotalTokensKey, value: 0 },
  ];
}

/**
 * Of `pairs`, those whose value differs from what `shown` holds for their key (every one the first
 * time), and `shown` then holds them: a workflow run upserts only the attributes that changed.
 */
export function changedSearchAttributes(
  pairs: readonly SearchAttributeUpdatePair[],
  shown: Map<string, unknown>,
): SearchAttributeUpdatePair[] {
  const changed = pairs.filter(({ key, value }) => !shown.has(key.name) || shown.get(key.name) !== value);
  for (const { key, value } of changed) shown.set(key.name, value);
  return changed;
}
