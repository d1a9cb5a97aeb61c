import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import type { ConnectMcpServerOptions } from '../../../src/tools/mcp/connect-mcp-server';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { toolResultOf } from '../../helpers/transcript-entries';
import { memoryOverStdio } from './reference-servers';

/** server-memory's create_entities: `readOnlyHint: false, destructiveHint: false` (it writes, it does not destroy). */
const createEntity = toolCallResponse(
  'mcp__memory__create_entities',
  { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
  { id: 'create' },
);

describe('approvals of a non-destructive MCP write (server-memory)', () => {
  let connections: HarnessConnections;
  let directory: string;
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = await mkdtemp(path.join(tmpdir(), 'toolrail-mcp-memory-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
    await connections.close();
  });

  /** Runs one session that creates an entity; returns the tool result and what the server stored. */
  async function createWith(
    options: Pick<ConnectMcpServerOptions, 'tools' | 'requiresPermission'>,
    { interactive, approve }: { interactive: boolean; approve?: boolean },
  ) {
    const file = path.join(directory, `${uniqueName('memory')}.jsonl`);
    const registry = new ToolRegistry();
    const memory = await connectMcpServer({ name: 'memory', transport: memoryOverStdio(file), registry, ...options });
    const model = createScriptedModel([createEntity, textResponse('Stored.')]);
    try {
      return await withSessionWorker(
        { connections, tools: registry, scriptedModels: { memory: model } },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('mcp-approval'),
            rules: compileRules({ toolrail: 1, rules: [] }),
            model: { provider: 'scripted', model: 'memory' },
            firstMessage: 'Remember Ada.',
            interactive,
            limits: { closeWhenIdle: true },
          });
          let pending: unknown[] = [];
          if (approve === true) {
            const state = await pollUntil(
              () => session.ruleState(),
              (found) => found.pendingApprovals.length === 1,
            );
            pending = state.pendingApprovals;
            await session.approve('create');
          }
          await session.result();
          const stored = await readFile(file, 'utf8').catch(() => '');
          return { result: toolResultOf(await session.transcript(), 'create'), pending, stored };
        },
      );
    } finally {
      await memory.close();
    }
  }

  it('asks a human by default, although the server says it is not destructive', async () => {
    const { result, pending, stored } = await createWith({}, { interactive: true, approve: true });
    expect(pending).toEqual([
      expect.objectContaining({ callId: 'create', toolName: 'mcp__memory__create_entities', destructive: false }),
    ]);
    expect(result).toMatchObject({ isError: false });
    expect(stored).toContain('"name":"Ada"');
  });

  it('is denied in a non-interactive session by default, and the server is never called', async () => {
    const { result, stored } = await createWith({}, { interactive: false });
    expect(result).toMatchObject({ isError: true, code: 'PERMISSION_DENIED' });
    expect(stored).toBe('');
  });

  it('runs without approval when the tool is configured so', async () => {
    const { result, stored } = await createWith(
      { tools: { create_entities: { requiresPermission: false } } },
      { interactive: false },
    );
    expect(result).toMatchObject({ isError: false });
    expect(stored).toContain('"name":"Ada"');
  });
});
