import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import type { SessionStatusView } from '../../../src/session/session-views';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { FlakyContentStore } from '../../helpers/flaky-content-store';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { untilRunsEnded } from '../../helpers/until-runs-ended';
import '../../harness/provided-context';

const run = promisify(execFile);
const noRules = compileRules({ toolrail: 1, rules: [] });
/** 300 KB of text: over Temporal's 256 KiB External Storage threshold, under the sessions' 1 MiB message limit. */
const big = (label: string): string => `${label}: ${'x'.repeat(300_000)}`;

/**
 * Payloads over 256 KiB from clients without External Storage (the `temporal` CLI, and Temporal's
 * own client without it, as Python's is): each arrives inline, and the worker stores it in the
 * session's content store. A store that fails then makes the session wait and say so, as for any
 * other write; no workflow task fails.
 */
describe('messages over 256 KiB sent inline by clients without External Storage', () => {
  let connections: HarnessConnections;
  let directory: string;
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-big-inline-'));
  });
  afterAll(async () => {
    await connections?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('the temporal CLI starts a session with a big first message, sends a big signal and a big update, and it completes', async () => {
    const model = createScriptedModel([textResponse('One.'), textResponse('Two.'), textResponse('Three.')]);
    await withSessionWorker(
      { connections, tools: [], scriptedModels: { chat: model } },
      async ({ client, taskQueue }) => {
        const sessionId = uniqueName('cli-big');
        const input = path.join(directory, 'start.json');
        const signal = path.join(directory, 'signal.json');
        const update = path.join(directory, 'update.json');
        writeFileSync(
          input,
          JSON.stringify({
            rules: noRules,
            model: { provider: 'scripted', model: 'chat' },
            firstMessage: big('first'),
          }),
        );
        writeFileSync(signal, JSON.stringify({ text: big('signal') }));
        writeFileSync(update, JSON.stringify({ text: big('update') }));
        const temporal = async (...args: string[]): Promise<string> => {
          const connection = ['--address', inject('temporalAddress'), '--namespace', inject('temporalNamespace')];
          const { stdout } = await run(inject('temporalCliPath'), [...args, ...connection], {
            maxBuffer: 16 * 1024 * 1024,
          });
          return stdout;
        };
        const session = client.getSession(sessionId);
        const ran = (count: number): Promise<SessionStatusView> =>
          pollUntil(
            () => session.status(),
            (status) => status.status === 'idle' && status.counters.runs === count,
          );
        await temporal(
          'workflow',
          'start',
          '--type',
          'agentSession',
          '--task-queue',
          taskQueue,
          '--workflow-id',
          sessionId,
          '--input-file',
          input,
        );
        await ran(1);
        await temporal(
          'workflow',
          'signal',
          '--workflow-id',
          sessionId,
          '--name',
          'userMessage',
          '--input-file',
          signal,
        );
        await ran(2);
        await temporal(
          'workflow',
          'update',
          'execute',
          '--workflow-id',
          sessionId,
          '--name',
          'sendUserMessage',
          '--input-file',
          update,
        );
        await ran(3);
        await temporal('workflow', 'signal', '--workflow-id', sessionId, '--name', 'endSession');
        expect(await session.result()).toMatchObject({ status: 'completed', counters: { runs: 3 } });
        const transcript = await session.transcript({ full: true });
        expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
          big('first'),
          big('signal'),
          big('update'),
        ]);
        const history = await readSessionHistory(session);
        expect(history.ofType('WORKFLOW_TASK_FAILED')).toEqual([]);
      },
    );
  });

  it('waits for a store that is down, saying so, when a big first message and a big signal arrive, then answers both; no workflow task fails', async () => {
    const store = new FlakyContentStore(new DirectoryContentStore(directory));
    const model = createScriptedModel([textResponse('Got the first.'), textResponse('Got the signal.')]);
    await withSessionWorker(
      { connections, tools: [], scriptedModels: { chat: model }, contentStore: store },
      async ({ client, taskQueue }) => {
        const sessionId = uniqueName('big-while-down');
        const session = client.getSession(sessionId);
        const input = {
          rules: noRules,
          model: { provider: 'scripted', model: 'chat' },
          firstMessage: big('first'),
          limits: { storeRetryIntervalMs: 500 },
        };
        const waitsForStore = async (): Promise<void> => {
          const waiting = await pollUntil(
            () => session.status(),
            (status) => status.status === 'waiting_for_store' && store.refused >= 2,
          );
          expect(waiting.storeProblem).toMatchObject({ code: 'STORE_UNAVAILABLE', store: store.description });
          expect(waiting.storeProblem?.message).toContain('ECONNREFUSED');
        };

        store.fail('connect ECONNREFUSED 127.0.0.1:5432');
        // Temporal's client without External Storage, as Python's: the payloads travel inline.
        await connections.client.workflow.start('agentSession', { taskQueue, workflowId: sessionId, args: [input] });
        await waitsForStore();
        store.heal();
        await untilRunsEnded(session, 1);

        store.fail('connect ECONNREFUSED 127.0.0.1:5432', { reads: true });
        // ToolrailClient's Temporal client has External Storage on the same store: its call fails, and sends nothing.
        await expect(session.send(big('not sent'))).rejects.toThrow(/ECONNREFUSED/);
        await connections.client.workflow.getHandle(sessionId).signal('userMessage', { text: big('signal') });
        await waitsForStore();
        store.heal();
        await untilRunsEnded(session, 2);

        const transcript = await session.transcript({ full: true });
        expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
          big('first'),
          big('signal'),
        ]);
        const history = await readSessionHistory(session);
        expect(history.ofType('WORKFLOW_TASK_FAILED')).toEqual([]);
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed' });
      },
    );
  });
});
