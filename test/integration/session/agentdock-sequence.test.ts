import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf } from '../../helpers/transcript-entries';

/** An AgentDock orchestration config: a research step (chosen by the message) with a tool sequence, and a default step. */
const orchestration = {
  steps: [
    {
      name: 'research',
      description: 'Research a topic: search, think, then summarise.',
      conditions: [{ type: 'message_regex', value: '^research\\b' }],
      availableTools: { allowed: ['web_search', 'think', 'summarize'] },
      sequence: ['web_search', 'think', 'summarize'],
    },
    { name: 'chat', isDefault: true, availableTools: { allowed: ['think'] } },
  ],
};

describe('a session on an AgentDock orchestration', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('refuses an out-of-order call with sequence_expected, advances on in-order calls, and shows the position in ruleState', async () => {
    const probe = new ToolProbe();
    const tools = ['web_search', 'think', 'summarize'].map((name) => defineProbeTool({ name, probe }));
    const model = createScriptedModel([
      toolCallResponse('summarize', {}, { id: 'too_early' }),
      toolCallResponse('web_search', {}, { id: 'search' }),
      toolCallResponse('think', { hold: true }, { id: 'think' }),
      toolCallResponse('summarize', {}, { id: 'summary' }),
      textResponse('Quantum batteries charge faster the bigger they are.'),
    ]);
    const rules = compileRules(orchestration, { file: 'orchestration.json' });
    await withSessionWorker({ connections, tools, scriptedModels: { research: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('agentdock'),
        rules,
        model: { provider: 'scripted', model: 'research' },
        firstMessage: 'research quantum batteries',
        limits: { closeWhenIdle: true },
      });

      // While `think` runs, web_search has advanced the sequence to its second position.
      await probe.started('think');
      const during = await session.ruleState();
      expect(during.rules.steps).toEqual([
        { file: 'orchestration.json', active: 'research', position: 1, expected: ['think'] },
      ]);
      expect(during.rules.visible).toEqual(['think']);
      expect(during.rules.hidden).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            tool: 'summarize',
            reasons: [expect.objectContaining({ code: 'sequence_expected' })],
          }),
        ]),
      );
      expect(during.runningCalls).toEqual([{ callId: 'think', toolName: 'think', interruptBehavior: 'block' }]);
      probe.release('think');

      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 3, blockedCalls: 1 } });
      const after = await session.ruleState();
      expect(after.rules.steps).toEqual([
        { file: 'orchestration.json', active: 'research', position: 3, expected: null },
      ]);

      const transcript = await session.transcript();
      const early = entriesOf(transcript, 'verdict').find((verdict) => verdict.callId === 'too_early');
      expect(early).toMatchObject({
        verdict: 'blocked',
        reasons: [expect.objectContaining({ code: 'sequence_expected', callFirst: ['web_search'] })],
      });
      expect(
        entriesOf(transcript, 'model')
          .map((turn) => turn.visible)
          .slice(0, 4),
      ).toEqual([['web_search'], ['web_search'], ['think'], ['summarize']]);
      expect(probe.toolsRun()).toEqual(['web_search', 'think', 'summarize']);
      const history = await readSessionHistory(session);
      expect(history.toolCallIds()).toEqual(['search', 'think', 'summary']);
    });
  });

  it('keeps the default step when the message does not match the research condition', async () => {
    const probe = new ToolProbe();
    const tools = ['web_search', 'think', 'summarize'].map((name) => defineProbeTool({ name, probe }));
    const model = createScriptedModel([toolCallResponse('web_search', {}, { id: 'search' }), textResponse('Hello!')]);
    const rules = compileRules(orchestration, { file: 'orchestration.json' });
    await withSessionWorker({ connections, tools, scriptedModels: { chat: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('agentdock-chat'),
        rules,
        model: { provider: 'scripted', model: 'chat' },
        firstMessage: 'hello there, can you research this?',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({
        lastRunEnd: 'answered',
        counters: { toolCalls: 0, blockedCalls: 1 },
      });
      const transcript = await session.transcript();
      expect(entriesOf(transcript, 'model')[0]?.visible).toEqual(['think']);
      expect(entriesOf(transcript, 'verdict')[0]?.reasons).toEqual([expect.objectContaining({ code: 'not_in_step' })]);
      expect((await session.ruleState()).rules.steps).toEqual([
        { file: 'orchestration.json', active: 'chat', position: 0, expected: null },
      ]);
      expect(probe.runs).toEqual([]);
    });
  });
});
