import type { SessionHandle } from '../../../src/client/session-handle';

/**
 * Ends a test's session the way a user would (`endSession`), and terminates it when it has not
 * completed within `timeoutMs` (default 30 000), so no test leaves a session running.
 */
export async function endSession(session: SessionHandle, timeoutMs = 30_000): Promise<void> {
  await session.end().catch(() => undefined);
  const ended = await Promise.race([
    session.result().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
  ]);
  if (!ended) await session.workflow.terminate('e2e test cleanup').catch(() => undefined);
}
