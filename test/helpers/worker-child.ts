import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../..');

/** A worker running in a child process (a script under `test/fixtures/` that prints `ready` once it polls). */
export interface WorkerChild {
  readonly pid: number;
  /** Sends SIGKILL and waits for the process to be gone. */
  kill(): Promise<void>;
  /** Sends SIGTERM (graceful worker shutdown) and waits for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `script` (relative to the repository) with `tsx` in a child process with `env` added, and
 * waits until it prints `ready`. The process is added to `children`, so the test's cleanup can kill
 * whatever is left; it also exits on its own when its stdin closes (the test process died).
 */
export async function startWorkerChild(
  script: string,
  env: Record<string, string>,
  children: Set<ChildProcess>,
): Promise<WorkerChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, script)], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`worker process exited (${code ?? signal}) before it was ready:\n${stderr}`)),
    );
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the worker process has no pid');
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    pid,
    kill: async () => {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (alive()) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Kills every worker child still running (for `afterAll`). */
export function killWorkerChildren(children: Set<ChildProcess>): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
