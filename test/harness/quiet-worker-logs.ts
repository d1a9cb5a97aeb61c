import { DefaultLogger, Runtime } from '@temporalio/worker';

// Workers log every state change at INFO; tests only need warnings and errors.
Runtime.install({ logger: new DefaultLogger('WARN') });
