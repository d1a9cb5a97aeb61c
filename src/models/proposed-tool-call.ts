/**
 * A tool call the model proposed. Nothing in it is trusted yet: the session resolves the name,
 * validates the arguments and checks the rules before anything runs.
 */
export interface ProposedToolCall {
  /** The provider's call id (or a deterministic fallback when the provider sent none); unique within one response. */
  readonly id: string;
  /** The tool name exactly as the model wrote it: a tool name, an alias, or anything at all. */
  readonly name: string;
  /**
   * The arguments: the parsed JSON object; the raw string when the model's text is not a JSON
   * object (invalid JSON, or JSON of another type); `{}` for an empty string. Tools also accept
   * `''`, `undefined` or `null`, meaning `{}`.
   */
  readonly args: unknown;
}
