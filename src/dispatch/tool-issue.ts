/**
 * One schema problem with a tool call's arguments, kept as data: zod's issue `code`, the `path` into
 * the arguments and a message. Plain JSON, so it can be recorded and shown to the model.
 */
export interface ToolIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}
