import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeMessage } from '../../../src/conversation/encode-message';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import type { SessionInput } from '../../../src/session/session-input';
import { fetchRunChain, startInput } from '../../helpers/run-chain';
import { defineTool } from '../../../src/tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { runHistorySizes } from '../../helpers/history-bytes';
import { ToolProbe } from '../../helpers/tool-probe';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { testContentStore, withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** `bytes` of text that differs per `seed`, ASCII (one byte a character). */
function asciiText(seed: string, bytes: number): string {
  const unit = `${seed} lorem ipsum dolor sit amet; `;
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** A read-only tool that returns a page of 5,000 bytes. */
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the document.',
  inputSchema: z.object({ page: z.number().int() }),
  concurrency: 'READ_ONLY',
  execute: ({ page }) => Promise.resolve(asciiText(`page ${page}`, 5_000)),
});

describe('long sessions keep history linear and bounded', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('completes the #1890 workload (800 KB first message, 100 calls of 5 KB) with every run under 1 MB of history', async () => {
    const calls = 100;
    const firstMessage = asciiText('the brief', 800_000);
    const model = createScriptedModel([
      ...Array.from({ length: calls }, (_, page) => toolCallResponse('read_page', { page })),
      textResponse('Read it all.'),
    ]);
    await withSessionWorker(
      { connections, tools: [readPage], scriptedModels: { reader: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('issue-1890'),
          rules: noRules,
          model: { provider: 'scripted', model: 'reader' },
          firstMessage,
          limits: { closeWhenIdle: true, maxTurnsPerRun: calls + 5 },
        });
        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: calls } });

        const runs = await runHistorySizes(connections.client, session.sessionId);
        const content = firstMessage.length + calls * 5_000;
        const total = runs.reduce((sum, run) => sum + run.historyBytes, 0);
        for (const run of runs) expect(run.historyBytes).toBeLessThan(1_000_000);
        for (const run of runs.slice(1)) expect(run.inputBytes).toBeLessThan(256 * 1024);
        expect(total).toBeLessThanOrEqual(2 * content + 1_000_000);

        // The model still read the whole brief on its last call; older results were cut to fit its budget.
        const last = model.requests.at(-1);
        const first = last?.messages[0];
        expect(first?.role === 'user' ? first.text : '').toBe(firstMessage);
        const transcript = await session.transcript();
        const lastModel = transcript.filter((entry) => entry.kind === 'model').at(-1);
        expect(lastModel?.kind === 'model' ? lastModel.shown : undefined).toMatchObject({ omitted: 0 });
        // The query is light: previews and references, not the 800 KB brief.
        expect(JSON.stringify(transcript).length).toBeLessThan(200_000);
        const full = await session.transcript({ full: true });
        const result = full.filter((entry) => entry.kind === 'tool').at(-1);
        expect(result?.kind === 'tool' ? result.content : '').toBe(asciiText(`page ${calls - 1}`, 5_000));
      },
    );
  });

  it('continues as new between the batches of one response, and every call runs once with its result in order', async () => {
    const calls = 60;
    const executed: number[] = [];
    const count = defineTool({
      name: 'count',
      description: 'Counts.',
      inputSchema: z.object({ n: z.number().int() }),
      concurrency: 'READ_ONLY',
      execute: ({ n }) => {
        executed.push(n);
        return Promise.resolve(asciiText(`n=${n}`, 2_000));
      },
    });
    const model = createScriptedModel([
      parallelToolCallsResponse(Array.from({ length: calls }, (_, n) => ({ name: 'count', args: { n }, id: `c${n}` }))),
      textResponse('Counted.'),
    ]);
    await withSessionWorker({ connections, tools: [count], scriptedModels: { counter: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('mid-turn'),
        rules: noRules,
        model: { provider: 'scripted', model: 'counter' },
        firstMessage: 'Count.',
        limits: { closeWhenIdle: true, continueAsNewAtHistoryBytes: 40_000 },
      });
      expect(await session.result()).toMatchObject({
        lastRunEnd: 'answered',
        counters: { toolCalls: calls, blockedCalls: 0 },
      });
      expect([...executed].sort((a, b) => a - b)).toEqual(Array.from({ length: calls }, (_, n) => n));
      const runs = await fetchRunChain(connections.client, session.sessionId);
      const carriedTurns = runs.flatMap(({ history }) => {
        const turn = startInput<SessionInput>(history).carried?.turn;
        return turn === undefined ? [] : [turn.remaining.length];
      });
      expect(carriedTurns.length).toBeGreaterThan(0);
      expect(carriedTurns.every((remaining) => remaining > 0 && remaining < calls)).toBe(true);
      const results = model.requests[1]?.messages.flatMap((message) =>
        message.role === 'tool' ? [message.callId] : [],
      );
      expect(results).toEqual(Array.from({ length: calls }, (_, n) => `c${n}`));
    });
  });

  it('continues as new within a response of 1,000 calls once the calls to come fit the carried state: every run under 1.5 MB', async () => {
    const calls = 1_000;
    const page = defineTool({
      name: 'page',
      description: 'Returns a 1 KB page.',
      inputSchema: z.object({ n: z.number().int() }),
      concurrency: 'READ_ONLY',
      execute: ({ n }) => Promise.resolve(asciiText(`page ${n}`, 1_000)),
    });
    const model = createScriptedModel([
      parallelToolCallsResponse(Array.from({ length: calls }, (_, n) => ({ name: 'page', args: { n }, id: `p${n}` }))),
      textResponse('Read.'),
    ]);
    await withSessionWorker({ connections, tools: [page], scriptedModels: { pages: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('one-response'),
        rules: noRules,
        model: { provider: 'scripted', model: 'pages' },
        firstMessage: 'Read every page.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: calls } });
      const runs = await runHistorySizes(connections.client, session.sessionId);
      expect(runs.length).toBeGreaterThan(1);
      // The first run holds the response's 1,000 prepared calls (about 650 KB) and runs calls until
      // those still to come fit in the 128 KiB a carried turn may take; the carried state stays bounded.
      for (const run of runs) expect(run.historyBytes).toBeLessThan(1_500_000);
      for (const run of runs.slice(1)) expect(run.inputBytes).toBeLessThan(160 * 1024);
    });
  });

  it('offloads a 3 MB tool result with maxResultSizeChars Infinity: the model reads a preview and the reference', async () => {
    const dump = defineTool({
      name: 'dump',
      description: 'Dumps everything.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      maxResultSizeChars: Infinity,
      execute: () => Promise.resolve(asciiText('dump', 3_000_000)),
    });
    const model = createScriptedModel([toolCallResponse('dump', {}), textResponse('Too much.')]);
    await withSessionWorker({ connections, tools: [dump], scriptedModels: { dumper: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('huge-result'),
        rules: noRules,
        model: { provider: 'scripted', model: 'dumper' },
        firstMessage: 'Dump it.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 1 } });
      const transcript = await session.transcript();
      const tool = transcript.find((entry) => entry.kind === 'tool');
      expect(tool).toMatchObject({ kind: 'tool', tool: 'dump', isError: false });

      const result = model.requests[1]?.messages.find((message) => message.role === 'tool');
      const content = result?.role === 'tool' ? result.content : '';
      expect(content).toContain('Output too large (3,000,000 characters)');
      const key = /content store as ([0-9a-f]{64})/.exec(content)?.[1];
      expect(key).toBeDefined();
      const stored = decodeMessage(await testContentStore().get(session.sessionId, key ?? ''));
      expect(stored.role === 'tool' ? stored.content.length : 0).toBe(3_000_000);
    });
  });

  it('offloads a result over maxResultSizeChars to the content store, under the session, not to a folder of the worker', async () => {
    const dump = defineTool({
      name: 'dump',
      description: 'Dumps a little too much.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      maxResultSizeChars: 1_000,
      execute: () => Promise.resolve(asciiText('row', 5_000)),
    });
    const model = createScriptedModel([toolCallResponse('dump', {}), textResponse('Read the preview.')]);
    await withSessionWorker({ connections, tools: [dump], scriptedModels: { dumper: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('long-result'),
        rules: noRules,
        model: { provider: 'scripted', model: 'dumper' },
        firstMessage: 'Dump it.',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
      const result = model.requests[1]?.messages.find((message) => message.role === 'tool');
      const content = result?.role === 'tool' ? result.content : '';
      expect(content).toContain('Output too large (5,000 characters)');
      expect(content).toContain('Preview (first 1,000 characters)');
      const key = /content store as ([0-9a-f]{64})/.exec(content)?.[1] ?? '';
      const stored = decodeMessage(await testContentStore().get(session.sessionId, key));
      expect(stored.role === 'tool' ? stored.content : '').toBe(asciiText('row', 5_000));
      // Removed with the session: nothing of it is left once the session's content is deleted.
      expect(await testContentStore().deleteSession(session.sessionId)).toBeGreaterThan(0);
      await expect(testContentStore().get(session.sessionId, key)).rejects.toMatchObject({ code: 'CONTENT_MISSING' });
    });
  });

  it('refuses a user message over the byte limit with an error naming the limit, and answers the others', async () => {
    const probe = new ToolProbe();
    const hold = defineProbeTool({ name: 'hold', probe });
    const ascii = asciiText('ascii', 1_000_000);
    const cjk = '漢'.repeat(333_333); // 999,999 bytes
    const cjkTooLarge = '字'.repeat(1_000_000); // 3,000,000 bytes
    const model = createScriptedModel([
      toolCallResponse('hold', { hold: true }, { id: 'held' }),
      textResponse('Got the ASCII one.'),
      textResponse('Got the CJK one.'),
    ]);
    await withSessionWorker({ connections, tools: [hold], scriptedModels: { holder: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('big-messages'),
        rules: noRules,
        model: { provider: 'scripted', model: 'holder' },
        firstMessage: 'Hold on.',
      });
      await probe.started('held');
      await session.send(ascii);
      const refusal = await session.send(cjkTooLarge).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refusal as WorkflowUpdateFailedError).cause?.message).toMatch(/3000000 bytes.*at most 1048576 bytes/);
      await session.send(cjk);
      probe.release('held');
      await expect.poll(async () => (await session.status()).counters.runs, { timeout: 60_000 }).toBe(3);
      await expect.poll(async () => (await session.status()).status, { timeout: 60_000 }).toBe('idle');
      await session.end();
      expect(await session.result()).toMatchObject({ status: 'completed', counters: { runs: 3 } });
      const texts = model.requests.map((request) => {
        const last = request.messages.filter((message) => message.role === 'user').at(-1);
        return last?.role === 'user' ? last.text : '';
      });
      // The run of the first message ends when the next one arrives; each later run answers one message.
      expect(texts.slice(1)).toEqual([ascii, cjk]);
    });
  });
});
