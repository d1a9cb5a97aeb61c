import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, toolCallResponse } from '../../../src/models';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import type { McpServerConnection } from '../../../src/tools/mcp/mcp-server-connection';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { toolResultOf } from '../../helpers/transcript-entries';
import {
  everythingOverStdio,
  freePort,
  recordedMessages,
  startEverythingOverHttp,
  type HttpReferenceServer,
} from './reference-servers';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy';

const longTool = 'mcp__everything__trigger-long-running-operation';

/** One way of reaching server-everything, with a record of every message it received. */
interface Wiring {
  readonly connection: McpServerConnection;
  received(): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

const wirings: Record<string, (registry: ToolRegistry) => Promise<Wiring>> = {
  stdio: async (registry) => {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolrail-mcp-record-'));
    const record = path.join(directory, 'stdin.jsonl');
    const connection = await connectMcpServer({
      name: 'everything',
      transport: everythingOverStdio({ recordTo: record }),
      registry,
    });
    return {
      connection,
      received: () => recordedMessages(record),
      stop: async () => {
        await connection.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
  'Streamable HTTP': async (registry) => {
    const server: HttpReferenceServer = await startEverythingOverHttp(await freePort());
    const proxy: RecordingProxy = await startRecordingProxy(server.url);
    const connection = await connectMcpServer({
      name: 'everything',
      transport: { type: 'streamable-http', url: proxy.url },
      registry,
    });
    return {
      connection,
      received: () => Promise.resolve(proxy.received()),
      stop: async () => {
        await connection.close();
        await proxy.close();
        await server.kill();
      },
    };
  },
};

describe.each(Object.keys(wirings))('interrupting a long call of server-everything over %s', (transport) => {
  let connections: HarnessConnections;
  let wiring: Wiring;
  const registry = new ToolRegistry();
  beforeAll(async () => {
    connections = await connectToHarness();
    wiring = await (wirings[transport] as (registry: ToolRegistry) => Promise<Wiring>)(registry);
  });
  afterAll(async () => {
    await wiring.stop();
    await connections.close();
  });

  it('stops the read-only tool by default and sends the server notifications/cancelled for its request', async () => {
    // Five minutes of work, one progress notification a second: only a cancellation ends it within the test.
    const model = createScriptedModel([toolCallResponse(longTool, { duration: 300, steps: 300 }, { id: 'long' })]);
    await withSessionWorker({ connections, tools: registry, scriptedModels: { long: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('mcp-interrupt'),
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'long' },
        firstMessage: 'Run the long operation.',
        limits: { closeWhenIdle: true },
      });
      const running = await pollUntil(
        () => session.ruleState(),
        (state) => state.runningCalls.length === 1,
      );
      expect(running.runningCalls).toEqual([{ callId: 'long', toolName: longTool, interruptBehavior: 'cancel' }]);
      const call = await pollUntil(
        () => wiring.received(),
        (messages) => messages.some(isCallOf('trigger-long-running-operation')),
      ).then((messages) => messages.find(isCallOf('trigger-long-running-operation')));

      await session.interrupt();

      expect(await session.result()).toMatchObject({ lastRunEnd: 'interrupted', counters: { turns: 1 } });
      expect(toolResultOf(await session.transcript(), 'long')).toMatchObject({ isError: true, code: 'INTERRUPTED' });
      // The server received the cancellation of that very request.
      const received = await pollUntil(
        () => wiring.received(),
        (messages) => messages.some((message) => message['method'] === 'notifications/cancelled'),
      );
      const cancellations = received.filter((message) => message['method'] === 'notifications/cancelled');
      expect(cancellations).toEqual([
        expect.objectContaining({ params: expect.objectContaining({ requestId: call?.['id'] }) as unknown }),
      ]);
    });
  });
});

function isCallOf(tool: string): (message: Record<string, unknown>) => boolean {
  return (message) =>
    message['method'] === 'tools/call' && (message['params'] as { name?: unknown } | undefined)?.name === tool;
}
