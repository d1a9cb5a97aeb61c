import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { Context, ContextManager } from '@opentelemetry/api';

/**
 * OpenTelemetry's active context kept in `AsyncLocalStorage`, so a span stays the parent across
 * awaits (the client's start span over the workflow headers, an activity's span over its work).
 * Registered only when the process has no context manager of its own.
 */
export class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (...args: unknown[]): unknown =>
      this.storage.run(context, () => (target as (...a: unknown[]) => unknown)(...args));
    return run as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
