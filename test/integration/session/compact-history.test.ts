import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { outline } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe("a session's activity payloads in history", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('carries the model and tool calls compact, and the tools and the session read them whole', async () => {
    const probe = new ToolProbe();
    const tools = [
      defineProbeTool({ name: 'read_note', probe }),
      defineProbeTool({ name: 'write_note', probe, concurrency: 'UNSAFE', requiresPermission: false }),
    ];
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { id: 'read_1', name: 'read_note', args: { answer: 'the note' } },
        { id: 'write_1', name: 'write_note', args: { answer: 'written' } },
      ]),
      textResponse('Read it and wrote it.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { compact: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('compact'),
        rules: noRules,
        model: { provider: 'scripted', model: 'compact' },
        firstMessage: 'Read, then write.',
        limits: { closeWhenIdle: true },
      });
      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 2, blockedCalls: 0 } });
      expect(outline(await session.transcript()).filter((line) => line.startsWith('tool:'))).toEqual([
        'tool:read_note#read_1:ok',
        'tool:write_note#write_1:ok',
      ]);
      expect(probe.runs.map((run) => [run.tool, run.callId])).toEqual([
        ['read_note', 'read_1'],
        ['write_note', 'write_1'],
      ]);

      const history = await readSessionHistory(session);
      const [firstModelCall] = history.activities().filter((activity) => activity.activityType === 'callModel');
      // Each prepared call beside the model's call it came from: only what differs from the usual.
      expect(firstModelCall?.result).toMatchObject({ prepared: [{}, { concurrency: 'UNSAFE' }] });
      expect(JSON.stringify(firstModelCall?.result)).not.toContain('prepared-call');
      expect(firstModelCall?.input).not.toHaveProperty('sessionId');
      expect(history.toolActivity('read_1').input).toEqual({
        storeId: expect.any(String) as unknown,
        turn: 0,
        call: { callId: 'read_1', toolName: 'read_note', input: { answer: 'the note' } },
        interactive: true,
      });
      // A result the rules do not read goes as its stored message alone.
      expect(Object.keys(history.toolActivity('write_1').result as object)).toEqual(['message']);
    });
  });
});
