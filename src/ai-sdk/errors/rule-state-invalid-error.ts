import { ToolrailError } from '../../errors';

/** A stored rule state given to `createToolrailPolicy` that is not a rule state of its rules; names where and why. */
export class RuleStateInvalidError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.RULE_STATE_INVALID');
  declare readonly code: 'RULE_STATE_INVALID';
  /** Where in the state, as a JSON path (`$` for the whole). */
  readonly path: string;
  /** What is wrong there, in one sentence. */
  readonly problem: string;

  constructor({ path, problem }: { path: string; problem: string }) {
    super({
      code: 'RULE_STATE_INVALID',
      message:
        `The rule state is not one of these rules: at ${path}, ${problem}. Pass the \`state\` a policy of the ` +
        'same rules gave (stored as it was), or leave it out to start a new conversation.',
    });
    this.name = 'RuleStateInvalidError';
    this.path = path;
    this.problem = problem;
  }
}
