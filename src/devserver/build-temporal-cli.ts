import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
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
  mkdirSync(binDirectory, { recursive: true });
  const target = `${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_VERSION}`;
  const startedAt = Date.now();
  let packagesBuilt = 0;
  let modulesDownloaded = 0;
  const tail: string[] = [];
  onProgress?.(
    `building the Temporal CLI v${TEMPORAL_CLI_VERSION} with \`go install ${target}\` (once; a cold build takes a few minutes)`,
  );
  const child = spawn(go, ['install', '-v', target], {
    env: { ...process.env, GOBIN: binDirectory, CGO_ENABLED: process.env.CGO_ENABLED ?? '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onOutput = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      if (line.startsWith('go: downloading')) modulesDownloaded += 1;
      else packagesBuilt += 1;
      tail.push(line);
      if (tail.length > 20) tail.shift();
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const ticker = setInterval(() => {
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    onProgress?.(`  … ${seconds} s: ${modulesDownloaded} modules downloaded, ${packagesBuilt} packages compiled`);
  }, 15_000);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (exitCode !== 0) {
      throw new Error(`\`go install ${target}\` exited with ${String(exitCode)}:\n${tail.join('\n')}`);
    }
  } finally {
    clearInterval(ticker);
  }
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  onProgress?.(`built the Temporal CLI in ${seconds} s`);
  return path.join(binDirectory, process.platform === 'win32' ? 'temporal.exe' : 'temporal');
}
