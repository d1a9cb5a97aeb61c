import { ToolrailError } from '../../errors';

/** An AI SDK tool object that cannot become a toolrail tool; names the tool and the problem. */
export class AiSdkToolInvalidError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.AI_SDK_TOOL_INVALID');
  declare readonly code: 'AI_SDK_TOOL_INVALID';
  /** The tool's key in the tool set. */
  readonly toolName: string;
  /** What is wrong, in one sentence, with the fix. */
  readonly problem: string;

  constructor({ toolName, problem, cause }: { toolName: string; problem: string; cause?: unknown }) {
    super({ code: 'AI_SDK_TOOL_INVALID', message: `AI SDK tool "${toolName}" cannot be used: ${problem}`, cause });
    this.name = 'AiSdkToolInvalidError';
    this.toolName = toolName;
    this.problem = problem;
  }
}
