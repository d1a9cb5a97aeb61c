import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { buildToolCatalog } from '../../../src/tools/catalog/build-tool-catalog';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import type { McpServerConnection } from '../../../src/tools/mcp/mcp-server-connection';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';
import { toolResultOf } from '../../helpers/transcript-entries';
import { everythingOverStdio, filesystemOverStdio, memoryOverStdio, recordedMessages } from './reference-servers';

describe('the input schemas of the reference servers', () => {
  let directory: string;
  let record: string;
  const registry = new ToolRegistry();
  const servers: McpServerConnection[] = [];
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = await mkdtemp(path.join(tmpdir(), 'toolrail-mcp-schemas-'));
    record = path.join(directory, 'everything-stdin.jsonl');
    servers.push(
      await connectMcpServer({ name: 'everything', transport: everythingOverStdio({ recordTo: record }), registry }),
      await connectMcpServer({ name: 'files', transport: filesystemOverStdio(directory), registry }),
      await connectMcpServer({
        name: 'memory',
        transport: memoryOverStdio(path.join(directory, 'memory.jsonl')),
        registry,
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(directory, { recursive: true, force: true });
    await connections.close();
  });

  it('refuse keys the server did not declare and have a strict-mode form, every one of them', () => {
    const { tools } = buildToolCatalog({ registry });
    const mcpTools = tools.filter((tool) => tool.flags.origin === 'mcp');
    // 12 + 14 + 9 tools; server-everything's task-only tool is not bridged.
    expect(mcpTools).toHaveLength(35);
    for (const tool of mcpTools) {
      expect({ tool: tool.name, additionalProperties: tool.inputSchema['additionalProperties'] }).toEqual({
        tool: tool.name,
        additionalProperties: false,
      });
      expect({ tool: tool.name, strict: tool.strictInputSchema !== null }).toEqual({ tool: tool.name, strict: true });
    }
    // Nested objects the server lists the properties of are closed too.
    const editFile = tools.find((tool) => tool.name === 'mcp__files__edit_file');
    expect(editFile?.inputSchema['properties']).toMatchObject({
      edits: { items: { additionalProperties: false } },
    });
  });

  it('reports the tool that needs MCP tasks as skipped, with the reason', () => {
    const [everything] = servers;
    expect(everything?.skipped).toEqual([
      {
        name: 'simulate-research-query',
        reason: expect.stringContaining('runs only as an MCP task') as string,
      },
    ]);
  });

  it('gives the model an error naming an undeclared key, and the server never sees the call', async () => {
    const model = createScriptedModel([
      toolCallResponse('mcp__everything__echo', { message: 'hi', bogus: true }, { id: 'bogus' }),
      toolCallResponse('mcp__everything__echo', { message: 'hi' }, { id: 'fixed' }),
      textResponse('Echoed.'),
    ]);
    await withSessionWorker({ connections, tools: registry, scriptedModels: { echo: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('mcp-undeclared-key'),
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'echo' },
        firstMessage: 'Echo hi.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
      const transcript = await session.transcript();
      const refused = toolResultOf(transcript, 'bogus');
      expect(refused).toMatchObject({ isError: true, code: 'INPUT_VALIDATION_ERROR' });
      expect(refused.content).toContain('Unknown parameter(s) "bogus": this tool does not take them.');
      expect(toolResultOf(transcript, 'fixed')).toMatchObject({ isError: false, content: 'Echo: hi' });
    });
    const echoes = (await recordedMessages(record)).filter(
      (message) => message['method'] === 'tools/call' && (message['params'] as { name: string }).name === 'echo',
    );
    expect(echoes.map((message) => (message['params'] as { arguments: unknown }).arguments)).toEqual([
      { message: 'hi' },
    ]);
  });
});
