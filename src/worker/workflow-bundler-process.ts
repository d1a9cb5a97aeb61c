import { fork } from 'node:child_process';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { sessionBundleOptions } from './session-bundle-options';
import type { SessionBundleRequest } from './session-bundle-options';

/** What the bundling process answers: the bundle, or why webpack failed. */
type BundlerAnswer = { bundle: WorkflowBundleWithSourceMap } | { error: { message: string; stack?: string } };

/**
 * Bundles toolrail's workflows in a child process of this file and returns the bundle. Webpack
 * grows a process by about 300 MB that the process keeps after the bundle is made; in a child
 * process that memory goes back to the system when it ends, so the worker runs without it. Where
 * no child process can be started, the bundle is made in this process.
 *
 * 1. Start this file as a Node process (through tsx when toolrail runs from its TypeScript sources).
 * 2. Send it the request; it bundles with `sessionBundleOptions` and answers once.
 * 3. It ends; an exit without an answer is an error.
 */
export function bundleInChildProcess(request: SessionBundleRequest): Promise<WorkflowBundleWithSourceMap> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const child = fork(__filename, [], {
      // Not the parent's flags (an --inspect port would clash); tsx only for the TypeScript sources.
      execArgv: path.extname(__filename) === '.ts' ? ['--import', 'tsx'] : [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (answer: BundlerAnswer) => {
      answered = true;
      if ('bundle' in answer) resolve(answer.bundle);
      else {
        const failure = new Error(answer.error.message);
        if (answer.error.stack !== undefined) failure.stack = answer.error.stack;
        reject(failure);
      }
    });
    child.on('error', (error) => {
      if (answered) return;
      answered = true;
      // No child process here (a sandbox that forbids it, no process slots left): bundle in this one.
      process.stderr.write(`[bundler] bundling in the worker's process: ${error.message}\n`);
      bundleWorkflowCode(sessionBundleOptions(request)).then(resolve, reject);
    });
    child.once('exit', (code, signal) => {
      if (!answered)
        reject(new Error(`the workflow bundler process ended (${signal ?? `exit code ${code}`}) without a bundle`));
    });
    // A child that cannot be reached ends without an answer ('exit') or never started ('error').
    child.send(request, () => undefined);
  });
}

/** The child's side: bundles what the parent asks for, answers, and ends. */
async function answerBundleRequest(request: SessionBundleRequest): Promise<void> {
  let answer: BundlerAnswer;
  try {
    answer = { bundle: await bundleWorkflowCode(sessionBundleOptions(request)) };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    answer = { error: { message: failure.message, ...(failure.stack === undefined ? {} : { stack: failure.stack }) } };
  }
  process.send?.(answer, () => process.exit(0));
}

if (require.main === module && process.send !== undefined) {
  process.once('message', (request: SessionBundleRequest) => void answerBundleRequest(request));
  // A parent that is gone needs no bundle.
  process.once('disconnect', () => process.exit(0));
}
