import type { JSONPayload } from '@temporalio/common/lib/proto-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { defineTool } from '../../../src/tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { decodeJsonPayload, fetchRunChain, startInput } from '../../helpers/run-chain';
import type { JsonHistory } from '../../helpers/run-chain';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** A system prompt of about 3 KB, with characters of two, three and four UTF-8 bytes. */
const systemPrompt = `You are a careful reader. Ünïcödé ✓ 🚀 ${'Read every page before you answer. '.repeat(90)}`;

const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page.',
  inputSchema: z.object({ page: z.number().int() }),
  concurrency: 'READ_ONLY',
  execute: ({ page }) => `page ${page}`,
});

/** The inputs of the run's `callModel` activities, decoded, in scheduling order. */
function modelCallInputs(history: JsonHistory): Record<string, unknown>[] {
  return history.events.flatMap((event) => {
    const attributes = event['activityTaskScheduledEventAttributes'] as
      { activityType?: { name?: string }; input?: { payloads?: JSONPayload[] } } | undefined;
    const payload = attributes?.input?.payloads?.[0];
    if (attributes?.activityType?.name !== 'callModel' || payload === undefined) return [];
    return [decodeJsonPayload<Record<string, unknown>>(payload)];
  });
}

describe('the session’s system prompt', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('when long, reaches the model on every call, while history carries it inline once and then by the key it was stored under, across continue-as-new', async () => {
    const model = createScriptedModel([
      ...[0, 1, 2, 3].map((page) => toolCallResponse('read_page', { page })),
      textResponse('Read.'),
    ]);
    await withSessionWorker(
      { connections, tools: [readPage], scriptedModels: { reader: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('system-prompt'),
          rules: noRules,
          model: { provider: 'scripted', model: 'reader' },
          systemPrompt,
          firstMessage: 'Read the document.',
          interactive: false,
          limits: { continueAsNewAfterTurns: 2 },
        });
        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 4 } });

        expect(model.requests.map((request) => request.system)).toEqual(Array(5).fill(systemPrompt));
        const runs = await fetchRunChain(client.temporal, session.sessionId);
        expect(runs.length).toBeGreaterThan(1);
        const inputs = runs.map(({ history }) => modelCallInputs(history));
        const [first, ...later] = inputs.flat();
        expect(first).toMatchObject({ system: systemPrompt });
        expect(first).not.toHaveProperty('systemKey');
        // Each later run starts knowing the key: none of its calls sends the prompt again.
        const carriedKeys = runs
          .slice(1)
          .map(({ history }) => startInput<{ carried?: { systemKey?: string } }>(history).carried?.systemKey);
        const [key] = carriedKeys;
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(carriedKeys).toEqual(carriedKeys.map(() => key));
        // History carries the key in base64url (the same SHA-256 in 43 characters).
        for (const input of later) {
          expect(input).not.toHaveProperty('system');
          expect(input['systemKey']).toBe(Buffer.from(key ?? '', 'hex').toString('base64url'));
        }
      },
    );
  });

  it('when short, goes inline with every call', async () => {
    const model = createScriptedModel([toolCallResponse('read_page', { page: 0 }), textResponse('Read.')]);
    await withSessionWorker(
      { connections, tools: [readPage], scriptedModels: { reader: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('short-system-prompt'),
          rules: noRules,
          model: { provider: 'scripted', model: 'reader' },
          systemPrompt: 'Be brief.',
          firstMessage: 'Read.',
          interactive: false,
        });
        await session.result();
        const [run] = await fetchRunChain(client.temporal, session.sessionId);
        const inputs = modelCallInputs(run?.history ?? { events: [] });
        expect(inputs).toHaveLength(2);
        for (const input of inputs) expect(input).toMatchObject({ system: 'Be brief.' });
        expect(model.requests.map((request) => request.system)).toEqual(['Be brief.', 'Be brief.']);
      },
    );
  });
});
