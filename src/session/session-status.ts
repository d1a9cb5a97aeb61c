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
  /** The session ended. */
  completed: 'completed',
} as const;

/** One of the {@link SessionStatus} values. */
export type SessionStatus = (typeof SessionStatus)[keyof typeof SessionStatus];
