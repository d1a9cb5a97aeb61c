import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToHarness, uniqueName } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import { readStoreIdentity } from '../../src/store';
import { pollUntil } from '../helpers/poll-until';
import { testContentDirectory, testContentStore } from '../helpers/session-worker';
import { endSession } from './support/end-session';
import { harnessConnectionArgs, runCli } from './support/run-cli';

const repoRoot = path.join(__dirname, '..', '..');

describe('toolrail worker and interrupt', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('says which content store it uses, serves sessions with a module’s tools (showing their workflow stack with --workflow-stack-traces), takes an interrupt from the CLI, and stops cleanly on SIGINT', async () => {
    const taskQueue = uniqueName('cli-worker');
    const connection = [...harnessConnectionArgs(), '--task-queue', taskQueue];
    const worker = spawn(
      process.execPath,
      [
        'bin/toolrail.cjs',
        'worker',
        '--module',
        'test/fixtures/slow-search-worker-module.ts',
        '--workflow-stack-traces',
        ...connection,
      ],
      // The store the CLI commands below use too, as a deployment shares one.
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TOOLRAIL_CONTENT_STORE: testContentDirectory() },
      },
    );
    let output = '';
    worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    const sessionId = uniqueName('cli-worker-session');
    try {
      await pollUntil(
        () => Promise.resolve(output),
        (text) => text.includes(`on task queue ${taskQueue}`),
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      // It names its store and the store's identity, which every worker of the task queue must share.
      const { id, description } = await readStoreIdentity(testContentStore());
      const storeLine = `worker: content store ${description} (store id ${id})\n`;
      await pollUntil(
        () => Promise.resolve(output),
        (text) => text.includes(storeLine),
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      const started = await runCli([
        'start',
        '--rules',
        'examples/support-desk/support-desk-rules.yaml',
        '--model',
        'scripted:support-desk',
        '--session-id',
        sessionId,
        '--message',
        'ada@example.com says ORD-1001 arrived broken; refund it.',
        ...connection,
      ]);
      expect(started.code).toBe(0);
      const session = connections.client.workflow.getHandle(sessionId);
      // The support-desk script searches the knowledge base on its second turn; this module's search runs until interrupted.
      await pollUntil(
        () => session.query<{ runningCalls: { toolName: string }[] }>('ruleState'),
        (state) => state.runningCalls.some((call) => call.toolName === 'search_knowledge_base'),
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      // The Web UI's Stack Trace tab: the session's workflow code, where it waits for the running search.
      expect(await session.query<string>('__stack_trace')).toMatch(/workflows\/[\w-]+\.(ts|js):\d+/);
      const interrupted = await runCli(['interrupt', sessionId, '--message', 'Skip the search.', ...connection]);
      expect(interrupted).toMatchObject({ code: 0, stdout: `interrupted ${sessionId}\n` });
      type Entry = { kind: string; reason?: string; code?: string; tool?: string };
      const transcript = await pollUntil(
        async () => (await session.query<{ entries: Entry[] }>('transcript')).entries,
        (entries) => entries.some((entry) => entry.kind === 'run-end' && entry.reason === 'interrupted'),
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(transcript).toContainEqual(
        expect.objectContaining({ kind: 'tool', tool: 'search_knowledge_base', code: 'INTERRUPTED' }),
      );
      expect(transcript).toContainEqual(expect.objectContaining({ kind: 'user', text: 'Skip the search.' }));
      const { SessionHandle } = await import('../../src/client/session-handle');
      await endSession(new SessionHandle(connections.client.workflow.getHandle(sessionId)));
    } finally {
      worker.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
