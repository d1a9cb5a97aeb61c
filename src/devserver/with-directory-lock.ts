import { mkdirSync, rmSync, statSync } from 'node:fs';

/** Options for {@link withDirectoryLock}. */
export interface DirectoryLockOptions {
  /** A lock older than this is taken to be left by a dead process and broken, in ms. Defaults to 20 minutes. */
  staleAfterMs?: number;
  /** How often to look again while another process holds the lock, in ms. Defaults to 1 000. */
  pollMs?: number;
  /** Called once when the lock is found taken. */
  onWait?: () => void;
}

/**
 * Runs `work` while holding a lock made of a directory (created atomically), so two processes
 * building the same thing into the same cache do not race. Waits while another process holds it.
 */
export async function withDirectoryLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: DirectoryLockOptions = {},
): Promise<T> {
  const staleAfterMs = options.staleAfterMs ?? 20 * 60_000;
  let waited = false;
  for (;;) {
    try {
      mkdirSync(lockPath);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = lockAgeMs(lockPath);
      if (age !== undefined && age > staleAfterMs) {
        rmSync(lockPath, { recursive: true, force: true });
        continue;
      }
      if (!waited) options.onWait?.();
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath, { recursive: true, force: true });
  }
}

function lockAgeMs(lockPath: string): number | undefined {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return undefined;
  }
}
