import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Returns true when `file` exists, is a regular file, and is executable by this user. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds `name` on `PATH` like a shell would; `undefined` when absent. */
export function findExecutableOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const directory of (env.PATH ?? '').split(path.delimiter)) {
    if (!directory) continue;
    for (const extension of extensions) {
      const candidate = path.join(directory, name + extension);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}
