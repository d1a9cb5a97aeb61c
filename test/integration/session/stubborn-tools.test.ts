import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { defineTool } from '../../../src/tools';
import { createWorker } from '../../../src/worker/create-worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { entriesOf, toolResultOf } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('a cancel tool that ignores its abort signal', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('is reported as not stopped after the grace period, and its late completion reaches the transcript', async () => {
    let markStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stubborn = defineTool({
      name: 'stubborn_write',
      description: 'Writes something and never looks at its abort signal.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      interruptBehavior: 'cancel',
      requiresPermission: false,
      isDestructive: () => false,
      execute: async () => {
        markStarted();
        await released; // ignores context.signal on purpose
        return { written: true };
      },
    });
    const model = createScriptedModel([
      toolCallResponse('stubborn_write', {}, { id: 'w1' }),
      textResponse('Moving on.'),
    ]);
    const taskQueue = uniqueName('stubborn');
    const worker = await createWorker({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      tools: [stubborn],
      scriptedModels: { work: model },
      toolAbortGraceMs: 100,
    });
    const client = new ToolrailClient({ client: connections.client, taskQueue });
    await worker.runUntil(async () => {
      const session = await client.startSession({
        sessionId: uniqueName('stubborn'),
        rules: noRules,
        model: { provider: 'scripted', model: 'work' },
        firstMessage: 'Write it.',
      });
      await started;
      await session.interrupt();

      // The session moved on while the tool still runs, and says so.
      const notStopped = await pollUntil(
        () => session.transcript(),
        (transcript) =>
          entriesOf(transcript, 'notice').some((entry) => entry.text.includes('did not stop')) &&
          entriesOf(transcript, 'tool').some((entry) => entry.callId === 'w1'),
      );
      expect(entriesOf(notStopped, 'notice').map((entry) => entry.text)).toEqual([
        '[toolrail] stubborn_write call w1 did not stop: it was still running when the session moved on and may still apply its effect',
      ]);
      expect(await session.status()).toMatchObject({ status: 'idle', lastRunEnd: 'interrupted' });
      // The tool result the model reads says so too.
      expect(toolResultOf(notStopped, 'w1')).toMatchObject({ isError: true, code: 'INTERRUPTED' });
      expect(toolResultOf(notStopped, 'w1').content).toContain('did not stop');
      await session.send('Next.');
      await pollUntil(
        () => session.status(),
        (status) => status.counters.runs === 2 && status.status === 'idle',
      );

      // The tool finally applies its effect: the late completion is recorded.
      release();
      const late = await pollUntil(
        () => session.transcript(),
        (transcript) => entriesOf(transcript, 'notice').some((entry) => entry.text.includes('finished late')),
      );
      expect(entriesOf(late, 'notice').at(-1)?.text).toBe(
        '[toolrail] stubborn_write call w1 finished late, after the session moved on (completed): {"written":true}',
      );
      await session.end();
      expect(await session.result()).toMatchObject({ counters: { runs: 2 } });
      const history = await readSessionHistory(session);
      expect(history.ofType('WORKFLOW_TASK_FAILED')).toEqual([]);
    });
  });
});
