import { spawn } from 'node:child_process';
import path from 'node:path';
import { toolrailCacheDir } from '../../src/devserver/cache-dir';
import { findExecutableOnPath, isExecutableFile } from '../../src/devserver/find-executable-on-path';
import { withDirectoryLock } from '../../src/devserver/with-directory-lock';

/** Where a Chromium was found. */
export interface ChromiumLocation {
  path: string;
  source: 'CHROMIUM_PATH' | 'system' | 'PATH' | 'apt-get';
  /** What `chromium --version` printed. */
  version: string;
}

/** Options of {@link ensureChromium}. */
export interface EnsureChromiumOptions {
  env?: NodeJS.ProcessEnv;
  onProgress?: (line: string) => void;
}

const systemPath = '/usr/bin/chromium';
const aptGet = '/usr/bin/apt-get';
const howToInstall =
  'Install it with `sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium` (Debian/Ubuntu), ' +
  'or set CHROMIUM_PATH to a Chromium or Chrome executable.';

/**
 * Finds the Chromium the browser tests drive: `$CHROMIUM_PATH`, else `/usr/bin/chromium`, else
 * `chromium` on `PATH`. When there is none and this process runs as root with `apt-get`, installs
 * Debian's `chromium` (25-40 s), printing progress. Rejects with how to install it otherwise.
 */
export async function ensureChromium({
  env = process.env,
  onProgress,
}: EnsureChromiumOptions = {}): Promise<ChromiumLocation> {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv))
      throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file. ${howToInstall}`);
    return { path: fromEnv, source: 'CHROMIUM_PATH', version: await chromiumVersion(fromEnv) };
  }
  const found = findInstalled(env);
  if (found) return { ...found, version: await chromiumVersion(found.path) };

  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !isExecutableFile(aptGet)) {
    throw new Error(
      `The browser tests need Chromium and none was found (CHROMIUM_PATH unset, no ${systemPath}, no chromium on PATH); ` +
        `it cannot be installed from here (${isRoot ? 'no apt-get' : 'not running as root'}). ${howToInstall}`,
    );
  }
  // Two test runs on one machine would fight over apt's locks: the first installs, the other waits.
  const lock = path.join(toolrailCacheDir(env), 'chromium-install.lock');
  await withDirectoryLock(
    lock,
    async () => {
      if (findInstalled(env)) return; // installed by the run this one waited for
      const startedAt = Date.now();
      onProgress?.("Chromium not found: installing Debian's chromium with apt-get (once per machine, 25-40 s)");
      await runApt(['update'], onProgress);
      await runApt(['install', '-y', '--no-install-recommends', 'chromium'], onProgress);
      onProgress?.(`chromium installed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    },
    { onWait: () => onProgress?.('another process is installing Chromium; waiting for it') },
  );

  const installed = findInstalled(env);
  if (!installed)
    throw new Error(`apt-get installed chromium, yet there is no ${systemPath} nor chromium on PATH. ${howToInstall}`);
  return { path: installed.path, source: 'apt-get', version: await chromiumVersion(installed.path) };
}

function findInstalled(env: NodeJS.ProcessEnv): { path: string; source: 'system' | 'PATH' } | undefined {
  if (isExecutableFile(systemPath)) return { path: systemPath, source: 'system' };
  const onPath = findExecutableOnPath('chromium', env);
  return onPath ? { path: onPath, source: 'PATH' } : undefined;
}

/** Runs `apt-get ARGS` non-interactively, printing its progress; rejects with its last output lines. */
async function runApt(args: readonly string[], onProgress?: (line: string) => void): Promise<void> {
  const startedAt = Date.now();
  onProgress?.(`$ apt-get ${args.join(' ')}`);
  // DPkg::Lock::Timeout: wait for a dpkg lock held by someone else instead of failing at once.
  const child = spawn(aptGet, ['-o', 'DPkg::Lock::Timeout=300', '-q', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  let fetched = 0;
  let setUp = 0;
  const onOutput = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (line.startsWith('Get:')) fetched += 1;
      if (line.startsWith('Setting up')) setUp += 1;
      if (/^(Need to get|Fetched|After this operation|Setting up chromium )/.test(line)) onProgress?.(`  ${line}`);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const ticker = setInterval(() => {
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    onProgress?.(`  … ${seconds} s: ${fetched} downloads, ${setUp} packages set up`);
  }, 5_000);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (exitCode !== 0) {
      throw new Error(
        `\`apt-get ${args.join(' ')}\` exited with ${String(exitCode)}:\n${tail.join('\n')}\n${howToInstall}`,
      );
    }
  } finally {
    clearInterval(ticker);
  }
}

/** `chromium --version`, which also proves the executable starts. */
async function chromiumVersion(executable: string): Promise<string> {
  const child = spawn(executable, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (exitCode !== 0) {
      throw new Error(`\`${executable} --version\` exited with ${String(exitCode)}: ${output.trim()}. ${howToInstall}`);
    }
  } finally {
    clearTimeout(timer);
  }
  return output.trim().split('\n').pop() ?? '';
}
