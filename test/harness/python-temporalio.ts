import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { toolrailCacheDir } from '../../src/devserver/cache-dir';
import { findExecutableOnPath } from '../../src/devserver/find-executable-on-path';
import { withDirectoryLock } from '../../src/devserver/with-directory-lock';

const run = promisify(execFile);

/** The Python packages the other-client tests use, pinned: the Temporal Python SDK, and a JSON Schema validator. */
export const pythonRequirements = ['temporalio==1.35.0', 'jsonschema==4.23.0'] as const;

/**
 * The Python of a virtual environment with {@link pythonRequirements}, made once per machine in
 * toolrail's per-user cache (like the Temporal CLI build) with `python3 -m venv` and pip from PyPI
 * (about 40 s, most of it the download), and reused by later runs: `npm run provision` makes it
 * beside the Go builds, so the tests find it ready. A machine without `python3`, or whose `python3`
 * cannot make a virtual environment (Debian's lacks `ensurepip` until `python3-venv` is installed),
 * gets Debian's `python3` and `python3-venv` with apt-get (as root); elsewhere the error says what to install.
 */
export async function ensurePythonTemporalio(onProgress: (line: string) => void = () => {}): Promise<string> {
  const directory = path.join(toolrailCacheDir(), `python-${pythonRequirements.join('-').replace(/[=]+/g, '-')}`);
  const python = path.join(directory, 'bin', 'python');
  const marker = path.join(directory, 'installed.txt');
  const wanted = pythonRequirements.join('\n');
  const ready = (): boolean => existsSync(marker) && readFileSync(marker, 'utf8') === wanted;
  if (ready()) return python;
  mkdirSync(path.dirname(directory), { recursive: true });
  await withDirectoryLock(
    `${directory}.lock`,
    async () => {
      if (ready()) return;
      rmSync(directory, { recursive: true, force: true });
      onProgress(`making a Python environment for the other-client tests in ${directory} (once per machine)`);
      await makeVirtualEnvironment(directory, onProgress);
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...pythonRequirements], {
        maxBuffer: 16 * 1024 * 1024,
      });
      writeFileSync(marker, wanted);
    },
    { onWait: () => onProgress('another process is making the Python environment; waiting for it') },
  );
  return python;
}

const installHint = 'The other-client tests need python3 (3.9 or later) with venv: install python3 and python3-venv.';

/** `python3 -m venv directory`, with Debian's python3 and python3-venv installed first when that cannot work. */
async function makeVirtualEnvironment(directory: string, onProgress: (line: string) => void): Promise<void> {
  const found = findExecutableOnPath('python3');
  if (found !== undefined) {
    try {
      await run(found, ['-m', 'venv', directory]);
      return;
    } catch (error) {
      if (!canUseAptGet()) throw new Error(`${found} -m venv failed: ${errorText(error)}\n${installHint}`);
      onProgress(`${found} cannot make a virtual environment (${errorText(error).split('\n')[0]})`);
      rmSync(directory, { recursive: true, force: true });
    }
  } else if (!canUseAptGet()) throw new Error(installHint);
  onProgress('installing python3 and python3-venv with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('/usr/bin/apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'update'], { env });
  await run('/usr/bin/apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'install', '-y', 'python3', 'python3-venv'], {
    env,
  });
  // Debian's own python3, which python3-venv completes (a python3 earlier on PATH may be another one).
  await run('/usr/bin/python3', ['-m', 'venv', directory]);
}

function canUseAptGet(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

function errorText(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  return typeof stderr === 'string' && stderr.trim() !== ''
    ? stderr.trim()
    : error instanceof Error
      ? error.message
      : String(error);
}
