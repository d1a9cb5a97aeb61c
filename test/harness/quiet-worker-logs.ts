import { DefaultLogger, Runtime } from '@temporalio/worker';

// Workers log every state change at INFO; tests only need warnings and errors. The test files of
// a project share one process, where the runtime is a singleton installed by the first of them.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // already installed by an earlier test file of this process
}
