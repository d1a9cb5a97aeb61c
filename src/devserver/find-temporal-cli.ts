import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildTemporalCli } from './build-temporal-cli';
import { toolrailCacheDir } from './cache-dir';
import { findExecutableOnPath, isExecutableFile } from './find-executable-on-path';
import { TemporalCliNotFoundError } from './temporal-cli-not-found-error';
import { TEMPORAL_CLI_VERSION } from './temporal-cli-version';
import { withDirectoryLock } from './with-directory-lock';

/** Where the `temporal` CLI came from. */
export type TemporalCliSource = 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache' | 'built';

/** A usable `temporal` CLI, or the instruction to let the SDK download one. */
export type TemporalCliLocation =
  { kind: 'executable'; path: string; source: TemporalCliSource } | { kind: 'sdk-download'; version: string };

/** Options for {@link findTemporalCli}. */
export interface FindTemporalCliOptions {
  env?: NodeJS.ProcessEnv;
  /** Receives progress lines while the CLI is built. */
  onProgress?: (line: string) => void;
  /** Allow the SDK's own download when nothing else works (needs internet). Defaults to true. */
  allowSdkDownload?: boolean;
}

/** The directory the pinned CLI build is cached in. */
export function cachedTemporalCliDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(toolrailCacheDir(env), `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

/**
 * Finds or builds the `temporal` CLI, in this order: `TEMPORAL_CLI_PATH`; `temporal` on `PATH`;
 * the cached build in toolrail's per-user cache; a fresh `go install` into that cache; else (with
 * no Go) the Temporal SDK's own download. Throws {@link TemporalCliNotFoundError}, listing what was
 * tried, when none works.
 */
export async function findTemporalCli(options: FindTemporalCliOptions = {}): Promise<TemporalCliLocation> {
  const env = options.env ?? process.env;
  const attempts: string[] = [];

  const explicit = env.TEMPORAL_CLI_PATH;
  if (explicit) {
    if (isExecutableFile(explicit)) return { kind: 'executable', path: explicit, source: 'TEMPORAL_CLI_PATH' };
    attempts.push(`TEMPORAL_CLI_PATH=${explicit}: not an executable file`);
    throw new TemporalCliNotFoundError({ attempts });
  }
  attempts.push('TEMPORAL_CLI_PATH: not set');

  const onPath = findExecutableOnPath('temporal', env);
  if (onPath) return { kind: 'executable', path: onPath, source: 'PATH' };
  attempts.push('`temporal` on PATH: not found');

  const cacheDirectory = cachedTemporalCliDirectory(env);
  const cached = path.join(cacheDirectory, process.platform === 'win32' ? 'temporal.exe' : 'temporal');
  if (isExecutableFile(cached)) return { kind: 'executable', path: cached, source: 'cache' };
  attempts.push(`cached build ${cached}: not there yet`);

  const go = findExecutableOnPath('go', env);
  if (go) {
    try {
      mkdirSync(path.dirname(cacheDirectory), { recursive: true });
      const built = await withDirectoryLock(
        `${cacheDirectory}.lock`,
        async () =>
          isExecutableFile(cached)
            ? cached
            : buildTemporalCli({
                go,
                binDirectory: cacheDirectory,
                ...(options.onProgress ? { onProgress: options.onProgress } : {}),
              }),
        { onWait: () => options.onProgress?.('another process is building the Temporal CLI; waiting for it') },
      );
      if (isExecutableFile(built)) return { kind: 'executable', path: built, source: 'built' };
      attempts.push(`go install into ${cacheDirectory}: finished but left no binary`);
    } catch (error) {
      attempts.push(`go install into ${cacheDirectory}: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    attempts.push('building with Go: `go` is not on PATH');
    if (options.allowSdkDownload ?? true) return { kind: 'sdk-download', version: `v${TEMPORAL_CLI_VERSION}` };
  }
  throw new TemporalCliNotFoundError({ attempts });
}
