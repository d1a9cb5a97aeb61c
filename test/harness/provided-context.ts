declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the dev server the harness started for this test run. */
    temporalAddress: string;
    /** Namespace on that server. */
    temporalNamespace: string;
    /** Web UI address, when the server serves it (the e2e project). */
    temporalUiAddress: string;
    /** Path of the `temporal` CLI the harness used (tests may start their own server with it). */
    temporalCliPath: string;
  }
}

export {};
