import { ToolrailError } from '../../errors';

/** Why the registry refused a tool. */
export const ToolRegistrationRefusal = {
  /** Another tool already has this name. */
  DUPLICATE_NAME: 'DUPLICATE_NAME',
  /** The name or an alias is already a name or alias of another tool. */
  ALIAS_COLLISION: 'ALIAS_COLLISION',
  /** Only local tools may declare aliases; an external (MCP) tool tried to. */
  EXTERNAL_ALIAS: 'EXTERNAL_ALIAS',
  /** The name is reserved for a built-in tool. */
  RESERVED_NAME: 'RESERVED_NAME',
} as const;

/** One of the {@link ToolRegistrationRefusal} strings. */
export type ToolRegistrationRefusal = (typeof ToolRegistrationRefusal)[keyof typeof ToolRegistrationRefusal];

/** Raised by `ToolRegistry.register` when a tool would make name resolution ambiguous or hijackable. */
export class ToolRegistrationError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.TOOL_REGISTRATION_REFUSED');
  declare readonly code: 'TOOL_REGISTRATION_REFUSED';
  readonly toolName: string;
  readonly reason: ToolRegistrationRefusal;
  /** The contested name (the tool's own name or one of its aliases). */
  readonly contestedName: string;

  constructor({
    toolName,
    reason,
    contestedName,
    detail,
  }: {
    toolName: string;
    reason: ToolRegistrationRefusal;
    contestedName: string;
    detail: string;
  }) {
    super({
      code: 'TOOL_REGISTRATION_REFUSED',
      message: `Tool "${toolName}" was not registered (${reason}): ${detail}`,
    });
    this.name = 'ToolRegistrationError';
    this.toolName = toolName;
    this.reason = reason;
    this.contestedName = contestedName;
  }
}
