import type { SessionWorkerScope, WithSessionWorkerOptions } from '../../helpers/session-worker';
import { withSessionWorker } from '../../helpers/session-worker';

/** A worker that runs until `stop()`, for tests whose sessions must stay served across several steps. */
export interface BackgroundWorker extends SessionWorkerScope {
  /** Shuts the worker down and waits for it; rejects if the worker failed. */
  stop(): Promise<void>;
}

/** Starts a real toolrail worker (see {@link withSessionWorker}) that keeps running until `stop()`. */
export async function startBackgroundWorker(options: WithSessionWorkerOptions): Promise<BackgroundWorker> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started: (scope: SessionWorkerScope) => void = () => undefined;
  const running = new Promise<SessionWorkerScope>((resolve) => (started = resolve));
  const done = withSessionWorker(options, async (scope) => {
    started(scope);
    await released;
  });
  const scope = await Promise.race([
    running,
    done.then(() => {
      throw new Error('the worker stopped before it started');
    }),
  ]);
  return {
    ...scope,
    stop: async () => {
      release();
      await done;
    },
  };
}
