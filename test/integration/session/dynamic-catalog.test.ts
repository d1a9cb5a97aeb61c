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

  it('shows a deferred tool that tool_search revealed from the next turn on, and lets the model call it', async () => {
    const tools = [
      defineTool({
        name: 'read_calendar',
        description: 'Reads the calendar.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => ({ events: [] }),
      }),
      defineTool({
        name: 'send_invite',
        description: 'Sends a calendar invite.',
        inputSchema: z.object({ to: z.string() }),
        concurrency: 'READ_ONLY',
        shouldDefer: true,
        execute: ({ to }) => ({ invited: to }),
      }),
    ];
    const model = createScriptedModel([
      toolCallResponse('tool_search', { query: 'select:send_invite' }),
      toolCallResponse('send_invite', { to: 'ada@example.com' }),
      toolCallResponse('read_calendar'),
      textResponse('Invited.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { deferred: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('deferred-catalog'),
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'deferred' },
        firstMessage: 'Invite Ada.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({
        lastRunEnd: 'answered',
        counters: { toolCalls: 3, blockedCalls: 0 },
      });
      const results = (await session.transcript()).filter((entry) => entry.kind === 'tool');
      expect(results.map((entry) => [entry.tool, entry.isError])).toEqual([
        ['tool_search', false],
        ['send_invite', false],
        ['read_calendar', false],
      ]);
    });
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['read_calendar', 'tool_search'],
      ['read_calendar', 'tool_search', 'send_invite'],
      ['read_calendar', 'tool_search', 'send_invite'],
      ['read_calendar', 'tool_search', 'send_invite'],
    ]);
  });
});
