import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError, ModelErrorCode, createScriptedModel, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('model failures in a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('ends the run with model_error on a request the provider refuses, and the session takes the next message', async () => {
    const model = createScriptedModel([
      () => {
        throw new ModelError({ code: ModelErrorCode.BAD_REQUEST, message: 'context too long', provider: 'scripted' });
      },
      textResponse('Hello again.'),
    ]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { failing: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('model-error'),
        rules: noRules,
        model: { provider: 'scripted', model: 'failing' },
        firstMessage: 'Hi',
      });
      await expect.poll(async () => (await session.status()).lastRunEnd, { timeout: 20_000 }).toBe('model_error');
      // A refused request is not retried: the provider would refuse it again.
      expect(model.requests).toHaveLength(1);
      const transcript = await session.transcript();
      const end = transcript.at(-1);
      expect(end).toMatchObject({ kind: 'run-end', reason: 'model_error' });
      expect(end?.kind === 'run-end' ? end.detail : '').toContain('context too long');

      await session.send('Try again');
      await expect.poll(async () => (await session.status()).lastRunEnd, { timeout: 20_000 }).toBe('answered');
      await session.end();
      expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    });
  });

  it('fails the session loudly when the scripted model runs out of responses', async () => {
    const model = createScriptedModel([textResponse('The only answer.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { short: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('script-exhausted'),
        rules: noRules,
        model: { provider: 'scripted', model: 'short' },
        firstMessage: 'First',
      });
      await expect.poll(async () => (await session.status()).lastRunEnd, { timeout: 20_000 }).toBe('answered');
      await session.send('Second');
      const failure = await session.result().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      const cause = (failure as WorkflowFailedError).cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect((cause as ApplicationFailure).type).toBe('SCRIPT_EXHAUSTED');
      expect((cause as ApplicationFailure).message).toMatch(/1 response/);
    });
  });
});
