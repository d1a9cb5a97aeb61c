declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the dev server the harness started for this test run. */
    temporalAddress: string;
    /** Namespace on that server. */
    temporalNamespace: string;
    /** Web UI address, when the server serves it (the e2e project). */
    temporalUiAddress: string;
    /** The dev server's Prometheus metrics (`http://host:port/metrics`); empty on the SDK's download. */
    temporalMetricsUrl: string;
    /** Path of the `temporal` CLI the harness used (tests may start their own server with it). */
    temporalCliPath: string;
    /** Chromium executable the e2e browser tests launch (found or installed by the e2e global setup). */
    chromiumPath: string;
    /** Connection string of the throwaway PostgreSQL the `store` project's setup started. */
    postgresUrl: string;
  }
}

export {};
