import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/** Options for {@link goInstall}. */
export interface GoInstallOptions {
  /** The `go` executable. */
  go: string;
  /** Packages at a version, `module/path/cmd/x@vX.Y.Z`; built in one `go install`. */
  targets: readonly string[];
  /** Directory the binaries are installed into (`GOBIN`). */
  binDirectory: string;
  /** What is built, for progress lines ("the Temporal CLI v1.5.1"). */
  label: string;
  /** Receives progress lines while the build runs (about every 15 s). */
  onProgress?: (line: string) => void;
}

/**
 * Runs `go install -v TARGETS` with `GOBIN=binDirectory` (and `CGO_ENABLED=0` unless set), printing
 * how many modules were downloaded and packages compiled about every 15 s. Resolves when Go exits
 * 0; rejects with Go's last output lines otherwise.
 */
export async function goInstall({ go, targets, binDirectory, label, onProgress }: GoInstallOptions): Promise<void> {
  mkdirSync(binDirectory, { recursive: true });
  const command = `go install ${targets.join(' ')}`;
  const startedAt = Date.now();
  let packagesBuilt = 0;
  let modulesDownloaded = 0;
  const tail: string[] = [];
  onProgress?.(`building ${label} with \`${command}\` (once; a cold build takes minutes)`);
  const child = spawn(go, ['install', '-v', ...targets], {
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
    if (exitCode !== 0) throw new Error(`\`${command}\` exited with ${String(exitCode)}:\n${tail.join('\n')}`);
  } finally {
    clearInterval(ticker);
  }
  onProgress?.(`built ${label} in ${Math.round((Date.now() - startedAt) / 1000)} s`);
}
