import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { maxCarriedTranscriptEntries } from '../../../src/session/session-input';
import { transcriptQuery } from '../../../src/session/session-messages';
import { defineTool } from '../../../src/tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { fetchRunChain } from '../../helpers/run-chain';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });
const pages = 20;

const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page.',
  inputSchema: z.object({ page: z.number().int() }),
  concurrency: 'READ_ONLY',
  execute: ({ page }) => Promise.resolve(`page ${page}`),
});

describe("a session's transcript across continue-as-new", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('reads every run, oldest first, and goes on without a run the server no longer has', async () => {
    const model = createScriptedModel([
      ...Array.from({ length: pages }, (_, page) => toolCallResponse('read_page', { page })),
      textResponse('Read.'),
    ]);
    await withSessionWorker(
      { connections, tools: [readPage], scriptedModels: { reader: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('transcript-runs'),
          rules: noRules,
          model: { provider: 'scripted', model: 'reader' },
          firstMessage: 'Read every page.',
          // Eight turns a run (25 entries): each run holds more entries than continue-as-new carries.
          limits: { closeWhenIdle: true, continueAsNewAfterTurns: 8 },
        });
        await session.result();
        const runs = await fetchRunChain(connections.client, session.sessionId);
        expect(runs.length).toBeGreaterThan(2);

        // The session's transcript: the first message, then per page the model's call, its verdict and its result.
        const whole = await session.transcript();
        const results = whole.flatMap((entry) => (entry.kind === 'tool' ? [entry.content] : []));
        expect(results).toEqual(Array.from({ length: pages }, (_, page) => `page ${page}`));
        expect(whole[0]).toMatchObject({ kind: 'user', text: 'Read every page.' });
        expect(whole.at(-1)).toMatchObject({ kind: 'run-end', reason: 'answered' });
        const latest = await session.workflow.query(transcriptQuery);
        expect(latest.start).toBeGreaterThan(0);
        expect(latest.entries.length).toBeLessThan(whole.length);
        expect(latest.entries.length).toBeGreaterThan(maxCarriedTranscriptEntries);

        // The first run deleted (as retention would): the transcript starts where the second run's entries do.
        const [first, second] = runs;
        if (first === undefined || second === undefined) throw new Error('no second run');
        await connections.client.workflowService.deleteWorkflowExecution({
          namespace: connections.client.options.namespace,
          workflowExecution: { workflowId: first.workflowId, runId: first.runId },
        });
        const gone = connections.client.workflow.getHandle(first.workflowId, first.runId);
        await pollUntil(
          () =>
            gone.describe().then(
              () => 'there',
              (error: unknown) => (error instanceof WorkflowNotFoundError ? 'gone' : 'there'),
            ),
          (state) => state === 'gone',
          // The server deletes a run in the background.
          { timeoutMs: 180_000, intervalMs: 200 },
        );
        const secondStart =
          (await connections.client.workflow.getHandle(second.workflowId, second.runId).query(transcriptQuery)).start ??
          0;
        expect(secondStart).toBeGreaterThan(0);
        const withoutFirst = await session.transcript();
        expect(withoutFirst).toEqual(whole.slice(secondStart));
      },
    );
  });
});
