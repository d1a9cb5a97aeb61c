import type { BundleOptions } from '@temporalio/worker';
import { payloadConverterPath } from './payload-converter-path';
import {
  compactionInterceptorsPath,
  publishLiveInterceptorsPath,
  sharedModulesPath,
  stackTracesOffPath,
  unreadableResultInterceptorsPath,
  workflowsPath,
} from './workflows-path';

/** A logger for `bundleWorkflowCode` that shows only the bundler's warnings and errors. */
export const bundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
};

/** The language level toolrail's compiled workflow code has (`tsconfig.json`'s target). */
const workflowTarget = 'es2022';

/**
 * Bundles TypeScript workflow sources (a worker run from source, the tests, the benchmarks) to the
 * language level of the published package: the bundler's default (ES2017) would turn every async
 * generator and object spread into helper calls and extra promises, each of which the SDK's promise
 * hook captures a stack for. Compiled JavaScript is bundled as it is. Every bundle leaves out the
 * exports no workflow uses and joins its modules into one scope: each workflow run evaluates anew
 * the bundle's modules that were not preloaded, so this makes every session start cheaper (about a
 * fifth less module evaluation per run, in a CPU profile of 200 sessions).
 */
export const bundleTypeScriptAsPublished: NonNullable<BundleOptions['webpackConfigHook']> = (config) => {
  for (const rule of config.module?.rules ?? []) {
    if (typeof rule !== 'object' || rule === null || typeof rule.use !== 'object' || rule.use === null) continue;
    const use = rule.use as { loader?: string; options?: { jsc?: { target?: string } } };
    if (use.loader?.includes('swc-loader') && use.options?.jsc) use.options.jsc.target = workflowTarget;
  }
  config.optimization = {
    ...config.optimization,
    sideEffects: true,
    usedExports: true,
    providedExports: true,
    innerGraph: true,
    concatenateModules: true,
  };
  return config;
};

/** Options of `bundleSessionWorkflows` and `bundleTracedSessionWorkflows`. */
export interface SessionBundleOptions {
  /**
   * Stack traces in workflow code: the frames the Temporal Web UI's Stack Trace tab shows for a
   * session (the `__stack_trace` query) and those of an error made in workflow code. Defaults to
   * `false`: capturing them costs about a fifth of a turn's workflow-thread CPU (see
   * `createWorker`'s `workflowStackTraces`).
   */
  stackTraces?: boolean;
  /**
   * Whether the sessions hand each workflow task's feed events to the worker's live channel (the
   * plugin's `live`). Defaults to `true`. `createWorker` bundles without it when its worker has no
   * live channel, so those events cost the worker nothing; a bundle without it keeps a worker's
   * live channel silent (the `feed` query still reads every event).
   */
  live?: boolean;
}

/** One toolrail bundle as plain data: the workflow interceptor modules between toolrail's own, and the options. */
export interface SessionBundleRequest {
  interceptorModules: readonly string[];
  stackTraces: boolean;
  live: boolean;
}

/**
 * The `bundleWorkflowCode` options of a toolrail bundle: toolrail's workflows, with first the
 * interceptors that refuse an activity result the session can never read (and, with `live`, those
 * that hand each task's feed events to the live channel), then `interceptorModules`, and last those
 * that carry a session's activity payloads compact.
 */
export function sessionBundleOptions({ interceptorModules, stackTraces, live }: SessionBundleRequest): BundleOptions {
  return {
    workflowsPath,
    payloadConverterPath,
    workflowInterceptorModules: [
      unreadableResultInterceptorsPath,
      ...(live ? [publishLiveInterceptorsPath] : []),
      ...interceptorModules,
      compactionInterceptorsPath,
    ],
    // Run in the sandbox before the SDK freezes its globals (the only moment Error.stackTraceLimit can
    // be set there), then toolrail's pure modules, evaluated once per workflow thread.
    preloadModules: [...(stackTraces ? [] : [stackTracesOffPath]), sharedModulesPath],
    logger: bundlerLogger,
    webpackConfigHook: bundleTypeScriptAsPublished,
  };
}
