const marker = Symbol.for('toolrail.error.TOOL_DEFINITION_INVALID');

/** Raised by `defineTool` for a definition that could never be dispatched safely; names the problem. */
export class ToolDefinitionError extends Error {
  readonly code = 'TOOL_DEFINITION_INVALID';
  readonly [marker] = true;
  /** The name the definition declared (possibly the invalid one). */
  readonly toolName: string;
  /** What is wrong, in one sentence. */
  readonly problem: string;

  constructor({ toolName, problem }: { toolName: string; problem: string }) {
    super(`Tool "${toolName}" cannot be defined: ${problem}`);
    this.name = 'ToolDefinitionError';
    this.toolName = toolName;
    this.problem = problem;
  }

  static isInstance(error: unknown): error is ToolDefinitionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
