import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, toolCallResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf, outline } from '../../helpers/transcript-entries';

/** Letta `tool_rules`, as Letta stores them: triage picks the next tool, the pick leads to a reply, the reply ends the run. */
const lettaRules = [
  { type: 'conditional', tool_name: 'triage', child_output_mapping: { urgent: 'page_oncall', routine: 'file_ticket' } },
  { type: 'constrain_child_tools', tool_name: 'page_oncall', children: ['send_reply'] },
  { type: 'constrain_child_tools', tool_name: 'file_ticket', children: ['send_reply'] },
  { type: 'exit_loop', tool_name: 'send_reply' },
];

describe('a session on Letta tool rules', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  const toolsFor = (probe: ToolProbe) => [
    defineProbeTool({ name: 'triage', probe }),
    defineProbeTool({ name: 'page_oncall', probe, concurrency: 'WRITE_EXCLUSIVE' }),
    defineProbeTool({ name: 'file_ticket', probe, concurrency: 'WRITE_EXCLUSIVE' }),
    defineProbeTool({ name: 'send_reply', probe, concurrency: 'WRITE_EXCLUSIVE' }),
  ];

  it('follows the child the conditional picks from the output, refuses other tools, and ends the run at the terminal tool', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('triage', { answer: 'urgent' }, { id: 'triage' }),
      toolCallResponse('file_ticket', {}, { id: 'wrong_child' }),
      toolCallResponse('page_oncall', {}, { id: 'page' }),
      toolCallResponse('triage', { answer: 'routine' }, { id: 'not_a_child' }),
      parallelToolCallsResponse([
        { id: 'reply', name: 'send_reply', args: { answer: 'The on-call engineer is on it.' } },
        { id: 'after_end', name: 'file_ticket', args: {} },
      ]),
    ]);
    const rules = compileRules(lettaRules, { file: 'letta-rules.json' });
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { letta: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('letta-flow'),
          rules,
          model: { provider: 'scripted', model: 'letta' },
          firstMessage: 'The checkout page is down!',
          limits: { closeWhenIdle: true },
        });
        const final = await session.result();
        // The terminal tool ended the run: the model was not asked again (its script would have run out).
        expect(final).toMatchObject({ lastRunEnd: 'terminal', counters: { turns: 5, toolCalls: 3, blockedCalls: 3 } });
        expect(probe.toolsRun()).toEqual(['triage', 'page_oncall', 'send_reply']);

        const transcript = await session.transcript();
        // Each model turn saw only what the rules allowed next.
        expect(entriesOf(transcript, 'model').map((turn) => turn.visible)).toEqual([
          ['file_ticket', 'page_oncall', 'send_reply', 'triage'],
          ['page_oncall'],
          ['page_oncall'],
          ['send_reply'],
          ['send_reply'],
        ]);
        const reasons = new Map(
          entriesOf(transcript, 'verdict').map((verdict) => [
            verdict.callId,
            verdict.reasons.map((reason) => reason.code),
          ]),
        );
        expect(reasons.get('wrong_child')).toEqual(['child_required']);
        expect(reasons.get('not_a_child')).toEqual(['child_required']);
        expect(reasons.get('after_end')).toEqual(['run_ended']);
        expect(outline(transcript).slice(-5)).toEqual([
          'verdict:send_reply#reply:allowed',
          'verdict:file_ticket#after_end:blocked',
          'tool:send_reply#reply:ok',
          'tool:file_ticket#after_end:RULE_BLOCKED',
          'run-end:terminal',
        ]);

        const history = await readSessionHistory(session);
        expect(history.toolCallIds()).toEqual(['triage', 'page', 'reply']);
        expect(history.activities().filter((activity) => activity.activityType === 'callModel')).toHaveLength(5);
      },
    );
  });

  it('picks the other child when the conditional tool answers differently', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('triage', { answer: 'routine' }, { id: 'triage' }),
      toolCallResponse('page_oncall', {}, { id: 'wrong_child' }),
      toolCallResponse('file_ticket', {}, { id: 'ticket' }),
      toolCallResponse('send_reply', { answer: 'Ticket filed.' }, { id: 'reply' }),
    ]);
    const rules = compileRules(lettaRules, { file: 'letta-rules.json' });
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { letta: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('letta-routine'),
          rules,
          model: { provider: 'scripted', model: 'letta' },
          firstMessage: 'A typo on the about page.',
          limits: { closeWhenIdle: true },
        });
        expect(await session.result()).toMatchObject({ lastRunEnd: 'terminal' });
        expect(probe.toolsRun()).toEqual(['triage', 'file_ticket', 'send_reply']);

        const transcript = await session.transcript();
        expect(
          entriesOf(transcript, 'model')
            .map((turn) => turn.visible)
            .slice(1),
        ).toEqual([['file_ticket'], ['file_ticket'], ['send_reply']]);
        const refused = entriesOf(transcript, 'verdict').find((verdict) => verdict.callId === 'wrong_child');
        expect(refused).toMatchObject({
          verdict: 'blocked',
          reasons: [
            { code: 'child_required', message: expect.stringContaining('"routine": call file_ticket next') as unknown },
          ],
        });
      },
    );
  });
});
