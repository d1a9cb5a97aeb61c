import path from 'node:path';
import { goInstall } from './go-install';
import { TEMPORAL_CLI_GO_PACKAGE, TEMPORAL_CLI_VERSION } from './temporal-cli-version';

/** Options for {@link buildTemporalCli}. */
export interface BuildTemporalCliOptions {
  /** The `go` executable. */
  go: string;
  /** Directory the binary is installed into (`GOBIN`). */
  binDirectory: string;
  /** Receives progress lines while the build runs (about every 15 s). */
  onProgress?: (line: string) => void;
}

/**
 * Builds the pinned `temporal` CLI with `go install` into `binDirectory`, printing progress.
 * A cold build takes minutes (about 4 on two cores); with Go's caches warm, seconds.
 * Resolves to the binary's path; rejects with Go's last output lines when the build fails.
 */
export async function buildTemporalCli({ go, binDirectory, onProgress }: BuildTemporalCliOptions): Promise<string> {
  await goInstall({
    go,
    targets: [`${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_VERSION}`],
    binDirectory,
    label: `the Temporal CLI v${TEMPORAL_CLI_VERSION}`,
    ...(onProgress ? { onProgress } : {}),
  });
  return path.join(binDirectory, process.platform === 'win32' ? 'temporal.exe' : 'temporal');
}
