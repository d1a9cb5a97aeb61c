import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import { toolrailLastToolKey, toolrailStatusKey } from '../../../src/session/search-attributes';
import { defineTool } from '../../../src/tools';
import type { AnyTool } from '../../../src/tools';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { ToolProbe } from '../../helpers/tool-probe';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** A tool that echoes its `word`: each result shows which call it answers. */
const echo = defineTool({
  name: 'echo',
  description: 'Returns the word it is given.',
  inputSchema: z.object({ word: z.string() }),
  concurrency: 'READ_ONLY',
  execute: ({ word }) => Promise.resolve(`echo:${word}`),
});

/** A model that calls `echo` twice, then `work` (call id `held`, which `probe` holds until released), then answers. */
function twoEchoesThenHeldWork(): {
  probe: ToolProbe;
  tools: AnyTool[];
  model: ReturnType<typeof createScriptedModel>;
} {
  const probe = new ToolProbe();
  const model = createScriptedModel([
    toolCallResponse('echo', { word: 'one' }),
    toolCallResponse('echo', { word: 'two' }),
    toolCallResponse('work', { hold: true }, { id: 'held' }),
    textResponse('Done.'),
  ]);
  return { probe, tools: [echo, defineProbeTool({ name: 'work', probe })], model };
}

/** The session's current details, as the Temporal UI reads them. */
async function currentDetails(handle: { query: (name: string) => Promise<unknown> }): Promise<string> {
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  return metadata.currentDetails ?? '';
}

describe('session statuses tell the truth', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('marks a session that fails on a misconfigured model as failed, in its search attribute and in the listing', async () => {
    const model = createScriptedModel([]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { empty: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('fails'),
        rules: noRules,
        model: { provider: 'scripted', model: 'empty' },
        firstMessage: 'Hi',
      });
      await expect(session.result()).rejects.toThrow();
      const description = await session.workflow.describe();
      expect(description.typedSearchAttributes.get(toolrailStatusKey)).toBe('failed');
      const listed = await client.listSessions({ status: 'failed' });
      expect(listed.map((entry) => entry.sessionId)).toContain(session.sessionId);
    });
  });

  it('lists a terminated session as failed, not with the status it had when the server ended it', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('terminated'),
        rules: noRules,
        model: { provider: 'scripted', model: 'unused' },
      });
      await expect.poll(async () => (await session.status()).status).toBe('idle');
      await session.workflow.terminate('operator stopped it');
      // The list is Temporal's visibility store, which shows the termination a moment after it.
      const listedEntry = async () =>
        (await client.listSessions()).find((candidate) => candidate.sessionId === session.sessionId);
      await expect.poll(async () => (await listedEntry())?.workflowStatus).toBe('TERMINATED');
      expect(await listedEntry()).toMatchObject({ status: 'failed', workflowStatus: 'TERMINATED' });
      const idle = await client.listSessions({ status: 'idle' });
      expect(idle.map((candidate) => candidate.sessionId)).not.toContain(session.sessionId);
    });
  });

  it('says a completed session has ended in its current details, not that it waits for a message', async () => {
    const model = createScriptedModel([textResponse('Done.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { once: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('completed'),
        rules: noRules,
        model: { provider: 'scripted', model: 'once' },
        firstMessage: 'Hi',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
      const details = await currentDetails(session.workflow);
      expect(details).toContain('`completed`');
      expect(details).toContain('has ended');
      expect(details).not.toContain('waiting for a user message');
    });
  });

  it('lists a session at work as running while its status query says which, and moves its search attributes only when the session ends', async () => {
    const { probe, tools, model } = twoEchoesThenHeldWork();
    await withSessionWorker({ connections, tools, scriptedModels: { busy: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('running'),
        rules: noRules,
        model: { provider: 'scripted', model: 'busy' },
        firstMessage: 'Go',
        limits: { closeWhenIdle: true },
      });
      await probe.started('held');
      expect((await session.status()).status).toBe('running_tools');
      const description = await session.workflow.describe();
      expect(description.typedSearchAttributes.get(toolrailStatusKey)).toBe('running');
      // The last tool goes with the listed status: its status query has it, the list has it once the status moves.
      expect((await session.status()).lastTool).toBe('echo');
      expect(description.typedSearchAttributes.get(toolrailLastToolKey)).toBeUndefined();
      await expect
        .poll(async () => (await client.listSessions({ status: 'running' })).map((entry) => entry.sessionId))
        .toContain(session.sessionId);
      const listed = (await client.listSessions()).find((entry) => entry.sessionId === session.sessionId);
      expect(listed?.status).toBe('running');
      await expect(client.listSessions({ status: 'thinking' as never })).rejects.toThrow(/running/);
      probe.release('held');
      expect(await session.result()).toMatchObject({ status: 'completed', counters: { toolCalls: 3 } });
      // Four turns moved the status between thinking and running_tools. The session started listed
      // as running (it had a message to run) with its counts at zero: the workflow upserts once, at
      // its end (the status and the last tool), and its history holds no patch marker and one local
      // activity at the start (store, first message, catalog).
      const events = (await session.workflow.fetchHistory()).events ?? [];
      const upserted = events.map((event) =>
        Object.fromEntries(
          Object.entries(
            event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
          ).map(([name, payload]) => [
            name,
            JSON.parse(new TextDecoder().decode(payload.data ?? new Uint8Array())) as unknown,
          ]),
        ),
      );
      expect(upserted.filter((fields) => Object.keys(fields).length > 0)).toEqual([
        { ToolrailStatus: 'completed', ToolrailLastTool: 'work' },
      ]);
      const markers = events.flatMap((event) => event.markerRecordedEventAttributes?.markerName ?? []);
      expect(markers).toEqual(['core_local_activity']);
    });
  });

  it('brings the counts and the last tool of a long run to the list before each continue-as-new', async () => {
    const { probe, tools, model } = twoEchoesThenHeldWork();
    await withSessionWorker({ connections, tools, scriptedModels: { long: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('long-run'),
        rules: noRules,
        model: { provider: 'scripted', model: 'long' },
        firstMessage: 'Go',
        limits: { closeWhenIdle: true, continueAsNewAfterTurns: 2 },
      });
      await probe.started('held');
      // The run goes on in the next workflow run, its status unmoved: the list shows where the last one left it.
      expect((await session.status()).counters.continuedAsNew).toBe(1);
      const description = await session.workflow.describe();
      expect(description.typedSearchAttributes.get(toolrailStatusKey)).toBe('running');
      expect(description.typedSearchAttributes.get(toolrailLastToolKey)).toBe('echo');
      probe.release('held');
      expect(await session.result()).toMatchObject({ status: 'completed', lastTool: 'work' });
    });
  });

  it('lets limits.maxTurnsPerRun raise the rules’ limit, and reports the end as turn_limit', async () => {
    const rules = compileRules({ toolrail: 1, maxTurnsPerRun: 2, rules: [] });
    const model = createScriptedModel(
      Array.from({ length: 4 }, (_, turn) => toolCallResponse('echo', { word: `w${turn}` })),
    );
    await withSessionWorker({ connections, tools: [echo], scriptedModels: { loop: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('turn-limit'),
        rules,
        model: { provider: 'scripted', model: 'loop' },
        firstMessage: 'Go',
        limits: { maxTurnsPerRun: 4, closeWhenIdle: true },
      });
      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'turn_limit', counters: { turns: 4, toolCalls: 4 } });
      const ends = (await session.transcript()).filter((entry) => entry.kind === 'run-end');
      expect(ends).toEqual([expect.objectContaining({ reason: 'turn_limit', detail: '4 model calls in this run' })]);
    });
  });

  it('gives repeated call ids of one response distinct ids, each result answering its own call', async () => {
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { name: 'echo', args: { word: 'first' }, id: 'dup' },
        { name: 'echo', args: { word: 'second' }, id: 'dup' },
        { name: 'echo', args: { word: 'third' }, id: 'dup' },
      ]),
      textResponse('Done.'),
    ]);
    await withSessionWorker({ connections, tools: [echo], scriptedModels: { dup: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('duplicate-ids'),
        rules: noRules,
        model: { provider: 'scripted', model: 'dup' },
        firstMessage: 'Go',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ counters: { toolCalls: 3 } });
      const followUp = model.requests[1]?.messages ?? [];
      const assistant = followUp.find((message) => message.role === 'assistant');
      const ids = assistant?.role === 'assistant' ? assistant.toolCalls.map((call) => call.id) : [];
      expect(new Set(ids).size).toBe(3);
      const results = followUp.flatMap((message) => (message.role === 'tool' ? [message] : []));
      const wordOf = new Map(
        assistant?.role === 'assistant'
          ? assistant.toolCalls.map((call) => [call.id, (call.args as { word: string }).word])
          : [],
      );
      expect(results).toHaveLength(3);
      for (const result of results) expect(result.content).toBe(`echo:${wordOf.get(result.callId)}`);
    });
  });
});
