import { testContentDirectory } from '../../helpers/session-worker';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import '../../harness/provided-context';

/** What one `toolrail` process did. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const repoRoot = path.join(__dirname, '..', '..', '..');
const bin = path.join(repoRoot, 'bin', 'toolrail.cjs');

/** `--address`, `--namespace` and `--ui-url` of the harness's dev server, for commands that connect. */
export function harnessConnectionArgs(): string[] {
  return [
    '--address',
    inject('temporalAddress'),
    '--namespace',
    inject('temporalNamespace'),
    '--ui-url',
    inject('temporalUiAddress'),
  ];
}

/**
 * Runs the real CLI (`node bin/toolrail.cjs ARGS`) as a child process and resolves with its exit
 * code and output; never rejects for a non-zero exit. The environment's `TEMPORAL_*` and
 * `TOOLRAIL_*` variables are removed so only the arguments decide where it connects; the content
 * store is the test workers' one, unless `env` (added last) says otherwise.
 */
export function runCli(
  args: readonly string[],
  { timeoutMs = 60_000, env: extraEnv = {} }: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('TEMPORAL_') && !name.startsWith('TOOLRAIL_')),
    ),
    // The content store of the test's workers, as a deployment shares one between workers and the CLI.
    TOOLRAIL_CONTENT_STORE: testContentDirectory(),
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: repoRoot, env, timeout: timeoutMs, killSignal: 'SIGTERM', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        if (error.killed)
          return reject(new Error(`toolrail ${args.join(' ')} did not exit within ${timeoutMs} ms:\n${stderr}`));
        if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr });
        return reject(
          new Error(
            `toolrail ${args.join(' ')} failed (${String(error.code ?? error.signal)}): ${error.message}\n${stderr}`,
          ),
        );
      },
    );
  });
}
