/**
 * Preloaded into the workflow sandbox (the Temporal SDK's `preloadModules`, before it freezes the
 * sandbox's globals) when a worker runs without workflow stack traces, `createWorker`'s default
 * (`workflowStackTraces`): errors made in workflow code capture no frames.
 *
 * The SDK's promise hook makes an error for every promise a workflow creates, to record where it
 * was made for the `__stack_trace` query (the Temporal Web UI's Stack Trace tab), and maps each
 * frame through the bundle's source map. A turn creates some forty promises: those captures were
 * about a fifth of a turn's workflow-thread CPU in a profile of 200 sessions. Without frames the
 * hook still runs, but costs little; the query then answers with no frames.
 */
Error.stackTraceLimit = 0;

export {};
