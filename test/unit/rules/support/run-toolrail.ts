import { execFile } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/** Runs the real `toolrail` binary from the repository's root and returns its exit code and output. */
export function toolrail(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin', 'toolrail.cjs'), ...args], { cwd: root }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? 1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The non-empty lines of `text`, without npm's warnings. */
export const lines = (text: string): string[] =>
  text.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));
