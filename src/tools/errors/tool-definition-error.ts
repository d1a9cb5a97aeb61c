import { ToolrailError } from '../../errors';

/** Raised by `defineTool` for a definition that could never be dispatched safely; names the problem. */
export class ToolDefinitionError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.TOOL_DEFINITION_INVALID');
  declare readonly code: 'TOOL_DEFINITION_INVALID';
  /** The name the definition declared (possibly the invalid one). */
  readonly toolName: string;
  /** What is wrong, in one sentence. */
  readonly problem: string;

  constructor({ toolName, problem }: { toolName: string; problem: string }) {
    super({ code: 'TOOL_DEFINITION_INVALID', message: `Tool "${toolName}" cannot be defined: ${problem}` });
    this.name = 'ToolDefinitionError';
    this.toolName = toolName;
    this.problem = problem;
  }
}
