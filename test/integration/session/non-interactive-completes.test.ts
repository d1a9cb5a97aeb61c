import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('a non-interactive session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('completes after its run without closeWhenIdle being set', async () => {
    const model = createScriptedModel([textResponse('Done.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { chat: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('non-interactive'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
        interactive: false,
        firstMessage: 'Go.',
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { runs: 1, turns: 1 } });
    });
  });
});
