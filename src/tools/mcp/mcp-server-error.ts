import { ToolrailError } from '../../errors';

/** What went wrong with an MCP server: it could not be reached, or it was given options that cannot work. */
export type McpServerProblem = 'MCP_CONNECTION_FAILED' | 'MCP_OPTIONS_INVALID';

/**
 * Raised by `connectMcpServer` when the server cannot be reached (a command that does not start, a
 * process that exits before it answers, an endpoint that refuses) or when its options cannot work.
 * The message names the server, how it is reached, and why: the exit status and the last stderr
 * lines of a process, the HTTP status or network error of an endpoint.
 */
export class McpServerError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.MCP_SERVER');
  declare readonly code: McpServerProblem;
  /** The server's name, as given to `connectMcpServer`. */
  readonly server: string;
  /** Why, without the server's name (e.g. `exited with code 1; stderr: …`). */
  readonly detail: string;

  constructor({
    code,
    server,
    detail,
    message,
    cause,
  }: {
    code: McpServerProblem;
    server: string;
    detail: string;
    message: string;
    cause?: unknown;
  }) {
    super({ code, message, cause });
    this.name = 'McpServerError';
    this.server = server;
    this.detail = detail;
  }
}
