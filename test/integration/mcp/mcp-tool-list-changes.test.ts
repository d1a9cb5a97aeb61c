import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';
import { toolResultOf } from '../../helpers/transcript-entries';
import { stdioFixture } from './start-fixture-server';

describe('an MCP server whose tool list changes mid-session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('shows the new tool on the next turn, and the model can call it, without any sync in user code', async () => {
    // None of the reference servers changes its tools on request; the fixture (the official SDK's
    // McpServer) registers one more and sends notifications/tools/list_changed.
    const registry = new ToolRegistry();
    const fixture = await connectMcpServer({
      name: 'fixture',
      transport: stdioFixture,
      registry,
      tools: { unlock_extra_tool: { requiresPermission: false } },
    });
    const model = createScriptedModel([
      toolCallResponse('mcp__fixture__unlock_extra_tool', {}, { id: 'unlock' }),
      toolCallResponse('mcp__fixture__extra', {}, { id: 'extra' }),
      textResponse('Done.'),
    ]);
    try {
      await withSessionWorker(
        { connections, tools: registry, scriptedModels: { changes: model } },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('mcp-list-changed'),
            rules: compileRules({ toolrail: 1, rules: [] }),
            model: { provider: 'scripted', model: 'changes' },
            firstMessage: 'Unlock the extra tool and use it.',
            limits: { closeWhenIdle: true },
          });
          expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 2 } });
          const transcript = await session.transcript();
          expect(toolResultOf(transcript, 'unlock')).toMatchObject({ isError: false, content: 'unlocked' });
          expect(toolResultOf(transcript, 'extra')).toMatchObject({ isError: false, content: 'extra' });
        },
      );
    } finally {
      await fixture.close();
    }
    const offered = model.requests.map((request) => request.tools.some((tool) => tool.name === 'mcp__fixture__extra'));
    expect(offered).toEqual([false, true, true]);
  });
});
