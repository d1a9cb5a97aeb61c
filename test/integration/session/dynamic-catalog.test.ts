import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { defineTool } from '../../../src/tools/define-tool';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

describe('the catalog of a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('picks up a tool enabled during a run on the next turn, and keeps each turn to one catalog', async () => {
    let exportEnabled = false;
    const tools = [
      defineTool({
        name: 'connect_storage',
        description: 'Connects the export storage; the export tool becomes available.',
        inputSchema: z.object({}),
        concurrency: 'WRITE_EXCLUSIVE',
        isDestructive: () => false,
        requiresPermission: false,
        execute: () => {
          exportEnabled = true;
          return { connected: true };
        },
      }),
      defineTool({
        name: 'export_report',
        description: 'Exports the report to the connected storage.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        isEnabled: () => exportEnabled,
        execute: () => ({ exported: true }),
      }),
    ];
    const model = createScriptedModel([
      toolCallResponse('connect_storage'),
      toolCallResponse('export_report'),
      textResponse('Exported.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { dynamic: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('dynamic-catalog'),
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'dynamic' },
        firstMessage: 'Connect the storage, then export the report.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({
        lastRunEnd: 'answered',
        counters: { toolCalls: 2, blockedCalls: 0 },
      });
    });
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['connect_storage'],
      ['connect_storage', 'export_report'],
      ['connect_storage', 'export_report'],
    ]);
  });
});
