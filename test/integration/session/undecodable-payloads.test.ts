import { randomUUID } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { entriesOf, outline } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** A payload whose encoding no data converter knows, as `temporal workflow signal --input-meta encoding=binary/unknown` sends. */
function unknownEncodingPayload(): Payload {
  return { metadata: { encoding: new TextEncoder().encode('binary/unknown') }, data: new TextEncoder().encode('"hi"') };
}

describe('payloads a session cannot decode', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('drops undecodable signals, rejects undecodable updates, refuses malformed interrupts, and goes on', async () => {
    const model = createScriptedModel([textResponse('Hello to you too.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { chat: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('undecodable'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
        limits: { closeWhenIdle: true },
      });
      const service = connections.client.workflowService;
      const workflowExecution = { workflowId: session.sessionId };
      const { namespace } = connections;

      await service.signalWorkflowExecution({
        namespace,
        workflowExecution,
        signalName: 'userMessage',
        input: { payloads: [unknownEncodingPayload()] },
        identity: 'test',
        requestId: randomUUID(),
      });
      const update = await service.updateWorkflowExecution({
        namespace,
        workflowExecution,
        request: {
          meta: { updateId: randomUUID(), identity: 'test' },
          input: { name: 'approveToolCall', args: { payloads: [unknownEncodingPayload()] } },
        },
        waitPolicy: { lifecycleStage: 3 }, // completed
      });
      expect(update.outcome?.failure?.message).toMatch(/could not be decoded \(encoding binary\/unknown\)/);
      await session.workflow.signal('interrupt', 42);

      // A query with an undecodable argument is answered: queries ignore their arguments.
      const queried = await service.queryWorkflow({
        namespace,
        execution: workflowExecution,
        query: { queryType: 'status', queryArgs: { payloads: [unknownEncodingPayload()] } },
      });
      expect(queried.queryRejected).toBeFalsy();
      expect(await session.status()).toMatchObject({ status: 'idle', queuedMessages: 0 });

      const notices = entriesOf(
        await pollUntil(
          () => session.transcript(),
          (transcript) => entriesOf(transcript, 'notice').length === 2,
        ),
        'notice',
      ).map((entry) => entry.text);
      expect(notices).toEqual([
        '[toolrail] dropped a userMessage signal: the payload could not be decoded (encoding binary/unknown); userMessage takes { text: string }',
        '[toolrail] dropped an interrupt signal: the payload must be an object, got 42; interrupt takes nothing or { text?: string }',
      ]);

      await session.send('Hello');
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { runs: 1, turns: 1 } });
      expect(outline(await session.transcript())).toEqual([
        'notice',
        'notice',
        'user:Hello',
        'model:text',
        'run-end:answered',
      ]);
      expect(model.requests[0]?.messages).toEqual([{ role: 'user', text: 'Hello' }]);
      const history = await readSessionHistory(session);
      expect(history.ofType('WORKFLOW_TASK_FAILED')).toEqual([]);
      // Only the next message's update was accepted; the undecodable approval was rejected.
      expect(history.acceptedUpdates().map((update) => update.name)).toEqual(['sendUserMessage']);
    });
  });
});
