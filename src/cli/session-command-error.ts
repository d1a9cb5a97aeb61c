import type { ToolrailClient } from '../client';
import type { StoreProblem } from '../session';

/**
 * The line a command prints when it failed on a session: the error (with its cause, which says why
 * an update was refused), and, when the session's workflow task fails (so queries and updates can
 * only fail), why it fails.
 */
export async function sessionCommandError(
  toolrail: ToolrailClient,
  sessionId: string,
  error: unknown,
): Promise<string> {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const said = cause === undefined || message.includes(cause) ? message : `${message}: ${cause}`;
  const stuck = await toolrail
    .getSession(sessionId)
    .workflowTaskFailure()
    .catch(() => undefined);
  return stuck === undefined ? said : `${said}; session ${sessionId} cannot run: its workflow task fails: ${stuck}`;
}

/** One line saying why a session waits for its content store, for the CLI. */
export function storeProblemLine(sessionId: string, problem: StoreProblem): string {
  return `session ${sessionId} waits for its content store since ${new Date(problem.since).toISOString()} (${problem.code}): ${problem.message}`;
}
