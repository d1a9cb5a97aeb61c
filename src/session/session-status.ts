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
