/** What happened to one allowed call. */
export interface CallOutcome {
  readonly tool: string;
  readonly args: unknown;
  readonly result: unknown;
  /** True when the tool ran and failed: it counts as an attempt but satisfies nothing. */
  readonly error: boolean;
}
