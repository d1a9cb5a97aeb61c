/**
 * The one place the Temporal CLI version is pinned. v1.5.1 is the newest tag that `go install`
 * accepts (later tags carry a `replace` directive); it reports `Server 1.29.1, UI 2.42.1`.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';

/** The Go package that builds the `temporal` binary. */
export const TEMPORAL_CLI_GO_PACKAGE = 'github.com/temporalio/cli/cmd/temporal';
