/** One tool call as a model proposed it. */
export interface ProposedToolCall {
  readonly callId: string;
  /** The name the model used: a tool name, an alias, or anything at all. */
  readonly name: string;
  /** A JSON object, a JSON string of one, or `''` / `undefined` / `null` meaning `{}`. */
  readonly args: unknown;
}
