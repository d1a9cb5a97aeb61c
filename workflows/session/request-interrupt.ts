import type { InterruptRequest, SessionContext } from './session-context';

/**
 * Acts on a user interrupt at once: cancels the in-flight model call and every running call whose
 * `interruptBehavior` is `cancel` (`block` calls finish), and queues the interrupt's message to
 * start the next run. The loop sees `context.interrupt` and ends the current run.
 */
export function requestInterrupt(context: SessionContext, request: InterruptRequest): void {
  if (request.message !== undefined) context.queuedMessages.unshift(request.message);
  if (!context.runInProgress) return;
  context.interrupt = request;
  context.modelScope?.cancel();
  for (const entry of context.running.values()) {
    if (entry.prepared.interruptBehavior === 'cancel') {
      entry.interrupted = true;
      entry.scope.cancel();
    }
  }
}
