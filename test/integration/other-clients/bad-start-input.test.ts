import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionInputError, checkSessionInput } from '../../../src/session';
import { toolrailVersion } from '../../../src/session';
import { createScriptedModel, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineTool } from '../../../src/tools';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { entriesOf } from '../../helpers/transcript-entries';

const rulesFile = { toolrail: 1, rules: [{ kind: 'requires', tool: 'issue_refund', after: ['lookup_customer'] }] };
const rules = compileRules(rulesFile);
const model = { provider: 'scripted', model: 'chat' };

/** What other clients send, and a line each refusal must show. */
const badInputs: { name: string; args: unknown[]; says: RegExp }[] = [
  { name: 'no input', args: [], says: /^- \(input\): no start input/m },
  { name: 'null', args: [null], says: /^- \(input\): the start input is null: /m },
  { name: 'no rules', args: [{ model, firstMessage: 'hi' }], says: /^- rules: missing \(expected object\)$/m },
  { name: 'no model', args: [{ rules, firstMessage: 'hi' }], says: /^- model: missing \(expected object\)$/m },
  {
    name: 'the rules file as JSON',
    args: [{ rules: rulesFile, model }],
    says: /^- rules: this is the content of a toolrail rules file, not a compiled rule set; compile it first/m,
  },
  {
    name: 'a hand-written compiled rule set',
    args: [{ rules: { format: 'toolrail.compiled-rules', version: 1, rules: [{ kind: 'init', tool: 'a' }] }, model }],
    says: /^- rules\.rules\[0\]\.ref: missing \(expected object\)$/m,
  },
  {
    name: 'an unknown rule kind',
    args: [{ rules: { ...rules, rules: [{ ...rules.rules[0], kind: 'require' }] }, model }],
    says: /^- rules\.rules\[0\]\.kind: Invalid discriminator value/m,
  },
  {
    name: 'another compiled-rules version',
    args: [{ rules: { ...rules, version: 2 }, model }],
    says: /^- rules\.version: this worker reads compiled rule sets of version 1, got 2/m,
  },
  {
    name: 'misspelt and snake_case keys',
    args: [{ rules, model, firstMesage: 'hi', limits: { max_turns_per_run: 2 } }],
    says: /unknown key "firstMesage" \(did you mean "firstMessage"\?\)[\s\S]*unknown key "max_turns_per_run" \(did you mean "maxTurnsPerRun"\?\)/,
  },
  {
    // Only a client of the worker's own version is trusted to have checked it.
    name: "another toolrail version's check",
    args: [{ rules, model, firstMessage: 42, checkedBy: '0.0.0-another-version' }],
    says: /^- firstMessage: expected string, got 42$/m,
  },
  {
    name: 'wrong types',
    args: [{ rules, model, firstMessage: 42, limits: { approvalTimeoutMs: '1h' } }],
    says: /^- firstMessage: expected string, got 42$[\s\S]*^- limits\.approvalTimeoutMs: expected number, got "1h"$/m,
  },
];

describe('a bad start input from any client', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('ends the session at once with every problem listed, and no workflow task fails', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client, taskQueue }) => {
      const started: { name: string; handle: WorkflowHandle }[] = await Promise.all(
        badInputs.map(async ({ name, args }) => {
          const workflowId = uniqueName('bad-input');
          // The plain Temporal client, as another language's SDK or the CLI would send it: no toolrail check on this side.
          const handle = await connections.client.workflow.start('agentSession', { taskQueue, workflowId, args });
          return { name, handle };
        }),
      );
      // And one encoded with a codec the worker lacks (an encrypting codec, as `binary/encrypted` says).
      const encryptedId = uniqueName('bad-input');
      await connections.client.workflowService.startWorkflowExecution({
        namespace: connections.namespace,
        workflowId: encryptedId,
        workflowType: { name: 'agentSession' },
        taskQueue: { name: taskQueue },
        input: {
          payloads: [{ metadata: { encoding: new TextEncoder().encode('binary/encrypted') }, data: randomBytes() }],
        },
        identity: 'test',
        requestId: randomUUID(),
      });
      started.push({
        name: 'a codec the worker lacks',
        handle: connections.client.workflow.getHandle(encryptedId),
      });
      const says = [
        ...badInputs.map(({ says }) => says),
        /^- \(input\): the start input could not be decoded \(encoding binary\/encrypted/m,
      ];

      for (const [index, { name, handle }] of started.entries()) {
        const failure = await handle.result().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, name).toBeInstanceOf(WorkflowFailedError);
        const cause = (failure as WorkflowFailedError).cause;
        expect(cause, name).toBeInstanceOf(ApplicationFailure);
        expect((cause as ApplicationFailure).type, name).toBe('InvalidSessionInput');
        expect((cause as ApplicationFailure).nonRetryable, name).toBe(true);
        expect(cause?.message, name).toMatch(/^the session input was refused \(\d+ problems?\):\n/);
        expect(cause?.message, name).toMatch(says[index] as RegExp);
        const history = await readSessionHistory(client.getSession(handle.workflowId));
        expect(history.ofType('WORKFLOW_TASK_FAILED'), name).toEqual([]);
        expect(history.events.at(-1)?.type, name).toBe('WORKFLOW_EXECUTION_FAILED');
      }
    });
  });

  it('is refused by ToolrailClient before anything starts, with the same problems', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
      const sessionId = uniqueName('bad-input');
      const input = { sessionId, rules, model: { provider: 'scripted' as const, model: 'chat' }, firstMesage: 'hi' };
      const refused = await client.startSession(input as never).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(SessionInputError.isInstance(refused)).toBe(true);
      expect((refused as SessionInputError).problems).toEqual([
        { path: '', problem: 'unknown key "firstMesage" (did you mean "firstMessage"?)' },
      ]);
      await expect(client.getSession(sessionId).workflow.describe()).rejects.toThrow(/not found/i);
    });
  });

  it('is sent by ToolrailClient as its check returned it, saying which version checked it, and runs', async () => {
    const chat = createScriptedModel([textResponse('Hello.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { chat } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('checked-input'),
        rules,
        model: { provider: 'scripted', model: 'chat' },
        firstMessage: 'Hello',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
      const input = (await readSessionHistory(session)).startInput() as Record<string, unknown>;
      expect(input['checkedBy']).toBe(toolrailVersion);
      expect(checkSessionInput(input)).toEqual({ ok: true, input });
    });
  });

  it('says in the transcript which names in tools the worker lacks, with the nearest one, and goes on', async () => {
    const lookup = defineTool({
      name: 'lookup_customer',
      description: 'Looks a customer up.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      execute: () => Promise.resolve({ found: true }),
    });
    const chat = createScriptedModel([textResponse('Hello.')]);
    await withSessionWorker({ connections, tools: [lookup], scriptedModels: { chat } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('tools-typo'),
        rules,
        model: { provider: 'scripted', model: 'chat' },
        tools: ['lookup_custmer'],
        firstMessage: 'Hello',
        limits: { closeWhenIdle: true },
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
      const notices = entriesOf(await session.transcript(), 'notice').map(({ text }) => text);
      expect(notices).toEqual([
        '[toolrail] the session\'s tools name "lookup_custmer" (did you mean "lookup_customer"?), which this worker does not have: the session goes on without it',
      ]);
      await pollUntil(
        () => session.workflow.describe(),
        (description) => description.status.name === 'COMPLETED',
      );
    });
  });
});

function randomBytes(): Uint8Array {
  return defaultPayloadConverter.toPayload('not readable without the key').data ?? new Uint8Array();
}
