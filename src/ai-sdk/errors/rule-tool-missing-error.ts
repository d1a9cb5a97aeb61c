import { ToolrailError } from '../../errors';

/**
 * Rules given to `createToolrailPolicy` that name tools the loop does not have (or do not pass
 * their load-time checks).
 */
export class RuleToolMissingError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.RULE_TOOL_MISSING');
  declare readonly code: 'RULE_TOOL_MISSING';
  /** Each problem: where in the rule set (`rules[3]`), and what. */
  readonly problems: readonly { readonly path: string; readonly problem: string }[];
  /** The names of the loop's tools. */
  readonly tools: readonly string[];

  constructor({ problems, tools }: { problems: { path: string; problem: string }[]; tools: readonly string[] }) {
    const listed = problems.map(({ path, problem }) => `\n- ${path}: ${problem}`).join('');
    super({
      code: 'RULE_TOOL_MISSING',
      message:
        `The rules do not fit the loop's tools (${tools.join(', ') || 'none'}):${listed}\n` +
        'Add the missing tools to `tools`, or correct the rules and compile them again.',
    });
    this.name = 'RuleToolMissingError';
    this.problems = problems;
    this.tools = tools;
  }
}
