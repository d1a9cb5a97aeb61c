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
 * (about a minute), and reused by later runs. When this machine has no `python3`, installs Debian's
 * `python3` and `python3-venv` with apt-get (as root).
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
      const system = await systemPython(onProgress);
      rmSync(directory, { recursive: true, force: true });
      onProgress(`making a Python environment for the other-client tests in ${directory} (once per machine)`);
      await run(system, ['-m', 'venv', directory]);
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...pythonRequirements], {
        maxBuffer: 16 * 1024 * 1024,
      });
      writeFileSync(marker, wanted);
    },
    { onWait: () => onProgress('another process is making the Python environment; waiting for it') },
  );
  return python;
}

async function systemPython(onProgress: (line: string) => void): Promise<string> {
  const found = findExecutableOnPath('python3');
  if (found) return found;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get'))
    throw new Error('The other-client tests need python3 (3.9 or later) with venv: install python3 and python3-venv.');
  onProgress('python3 not found: installing python3 and python3-venv with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('/usr/bin/apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'update'], { env });
  await run('/usr/bin/apt-get', ['-o', 'DPkg::Lock::Timeout=300', '-q', 'install', '-y', 'python3', 'python3-venv'], {
    env,
  });
  const installed = findExecutableOnPath('python3');
  if (!installed) throw new Error('apt-get installed python3, yet there is no python3 on PATH');
  return installed;
}
