import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { toolrailCacheDir } from '../../../src/devserver/cache-dir';
import { findExecutableOnPath, isExecutableFile } from '../../../src/devserver/find-executable-on-path';
import { goInstall } from '../../../src/devserver/go-install';
import { withDirectoryLock } from '../../../src/devserver/with-directory-lock';

/** The Temporal server's Go module: its server command and its SQL tool build with `go install`. */
const serverModule = 'go.temporal.io/server';

/** The Temporal server and its SQL tool, named as in Temporal's images (`temporal-server`, `temporal-sql-tool`). */
export interface TemporalServerBinaries {
  /** Directory holding both; put it first on PATH to run the compose jobs' scripts. */
  directory: string;
  server: string;
  sqlTool: string;
}

/** Options of {@link findTemporalServerBinaries}. */
export interface FindTemporalServerOptions {
  env?: NodeJS.ProcessEnv;
  onProgress?: (line: string) => void;
}

/**
 * The Temporal server and its SQL tool at `version` (`1.30.1`), from toolrail's per-user cache,
 * else built there once with `go install go.temporal.io/server/cmd/server@vVERSION
 * go.temporal.io/server/cmd/tools/sql@vVERSION` (with progress, under a lock so that parallel runs
 * build once). Throws an error that lists what was tried when neither works.
 */
export async function findTemporalServerBinaries(
  version: string,
  options: FindTemporalServerOptions = {},
): Promise<TemporalServerBinaries> {
  const env = options.env ?? process.env;
  const directory = path.join(toolrailCacheDir(env), `temporal-server-${version}`);
  const binaries = {
    directory,
    server: path.join(directory, 'temporal-server'),
    sqlTool: path.join(directory, 'temporal-sql-tool'),
  };
  const complete = (): boolean => isExecutableFile(binaries.server) && isExecutableFile(binaries.sqlTool);
  if (complete()) return binaries;
  const attempts = [`cached build in ${directory}: not there yet`];

  const go = findExecutableOnPath('go', env);
  if (!go) {
    attempts.push('building with Go: `go` is not on PATH');
  } else {
    try {
      mkdirSync(path.dirname(directory), { recursive: true });
      await withDirectoryLock(
        `${directory}.lock`,
        async () => {
          if (complete()) return;
          // Built into a scratch directory, then named as in the images: `server` and `sql` are too generic.
          const scratch = `${directory}.build`;
          rmSync(scratch, { recursive: true, force: true });
          await goInstall({
            go,
            targets: [`${serverModule}/cmd/server@v${version}`, `${serverModule}/cmd/tools/sql@v${version}`],
            binDirectory: scratch,
            label: `the Temporal server v${version} and its SQL tool`,
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          });
          mkdirSync(directory, { recursive: true });
          renameSync(path.join(scratch, 'sql'), binaries.sqlTool);
          renameSync(path.join(scratch, 'server'), binaries.server);
          rmSync(scratch, { recursive: true, force: true });
        },
        { onWait: () => options.onProgress?.('another process is building the Temporal server; waiting for it') },
      );
      if (complete()) return binaries;
      attempts.push(`go install into ${directory}: finished but left no temporal-server and temporal-sql-tool`);
    } catch (error) {
      attempts.push(`go install into ${directory}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(
    [
      `Could not find or build the Temporal server v${version}. Tried, in order:`,
      ...attempts.map((attempt) => `  - ${attempt}`),
      'Install Go (https://go.dev/dl/) so the test run can build it once into the cache.',
    ].join('\n'),
  );
}
