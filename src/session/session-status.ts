/** Where a session is. Also the `ToolrailStatus` search attribute. */
export const SessionStatus = {
  /** Waiting for a user message. */
  idle: 'idle',
  /** The model is being called. */
  thinking: 'thinking',
  /** Tools are running. */
  running_tools: 'running_tools',
  /** At least one call waits for a human approval. */
  awaiting_approval: 'awaiting_approval',
  /**
   * The session waits for its content store (unavailable, full, content missing or corrupt, or only
   * workers with another store polling); the `storeProblem` of the `status` query says why. It goes
   * on where it was once the store is back.
   */
  waiting_for_store: 'waiting_for_store',
  /**
   * A call of an activity tool waits for a worker: none took its activity in time, or one lacks it
   * (the `workerWaits` of the `status` query say which). It is scheduled again until one takes it;
   * the status comes back once the call's activity has ended.
   */
  waiting_for_worker: 'waiting_for_worker',
  /** The session ended normally. */
  completed: 'completed',
  /**
   * The session failed: on a path the workflow controls (e.g. a misconfigured model; see the
   * workflow's failure), or it ended after its last run ended with `model_error`.
   */
  failed: 'failed',
} as const;

/** One of the {@link SessionStatus} values. */
export type SessionStatus = (typeof SessionStatus)[keyof typeof SessionStatus];

/**
 * A session's status as the `ToolrailStatus` search attribute and session lists show it: its
 * {@link SessionStatus}, except that `thinking` and `running_tools` are both `running`. A session at
 * work moves between those two every turn; shown apart, each turn would cost two search-attribute
 * updates (history events and visibility writes) for a value stale by the time a list shows it. The
 * `status` query tells them apart.
 */
export type ListedSessionStatus = Exclude<SessionStatus, 'thinking' | 'running_tools'> | 'running';

/** Every {@link ListedSessionStatus}, in the order of {@link SessionStatus}. */
export const listedSessionStatuses: readonly ListedSessionStatus[] = [
  'idle',
  'running',
  'awaiting_approval',
  'waiting_for_store',
  'waiting_for_worker',
  'completed',
  'failed',
];

/** The listed status of `status`: `thinking` and `running_tools` are `running`. */
export function listedStatus(status: SessionStatus | ListedSessionStatus): ListedSessionStatus {
  return status === 'thinking' || status === 'running_tools' ? 'running' : status;
}

/**
 * Why a run ended: the rule engine's own ends (`answered`: the model answered and the rules let the
 * run end; `terminal`: a terminal tool completed; `turn_limit`; `no_tool_allowed`), the session's
 * (`interrupted` by the user; `new_message`: a message arrived mid-run; `model_error`: the model call
 * failed for good), and the model's (`max_tokens`: the output limit cut the response off, its calls
 * not run; `refusal`: the model refused; `content_filter`: the provider's filter stopped it).
 */
export type RunEndReason =
  | 'answered'
  | 'terminal'
  | 'turn_limit'
  | 'no_tool_allowed'
  | 'interrupted'
  | 'new_message'
  | 'model_error'
  | 'max_tokens'
  | 'refusal'
  | 'content_filter';
