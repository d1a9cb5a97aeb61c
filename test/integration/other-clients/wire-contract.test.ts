import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { RuleStatePage, TranscriptPage } from '../../../src/session';
import { defineTool } from '../../../src/tools';
import type { AnyTool } from '../../../src/tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { entriesOf } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

function readOnlyTool(name: string): AnyTool {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: z.object({}),
    concurrency: 'READ_ONLY',
    execute: () => Promise.resolve({ ok: true }),
  });
}

/** The failure an update was refused with. */
async function refusal(update: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await update.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  const cause = (error as WorkflowUpdateFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

describe('the wire contract, as any client meets it', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('notes a signal or update name it does not know, with the nearest one, in the transcript and the current details', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('unknown-names'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
      });
      await session.workflow.signal('user_message', { text: 'hi' });
      await session.workflow.signal('sendUserMessage', { text: 'hi' });
      const unknownUpdate = await refusal(session.workflow.executeUpdate('approve_tool_call', { args: [{}] }));
      expect(unknownUpdate.type).toBe('UnknownUpdate');
      expect(unknownUpdate.nonRetryable).toBe(true);
      expect(unknownUpdate.message).toBe(
        'toolrail has no update named "approve_tool_call" (did you mean "approveToolCall"?); its updates: sendUserMessage, approveToolCall',
      );
      await expect(session.workflow.query('rule_state')).rejects.toThrow(
        'toolrail has no query named "rule_state" (did you mean "ruleState"?); its queries: ruleState, transcript, status, feed',
      );
      const notices = entriesOf(
        await pollUntil(
          () => session.transcript(),
          (transcript) => entriesOf(transcript, 'notice').length === 3,
        ),
        'notice',
      ).map(({ text }) => text);
      expect(notices).toEqual([
        '[toolrail] ignored a signal: toolrail has no signal named "user_message" (did you mean "userMessage"?); its signals: userMessage, interrupt, endSession, toolCallFinishedLate, modelText',
        '[toolrail] ignored a signal: "sendUserMessage" is an update, not a signal (toolrail\'s signals: userMessage, interrupt, endSession, toolCallFinishedLate, modelText)',
        '[toolrail] refused an update: toolrail has no update named "approve_tool_call" (did you mean "approveToolCall"?); its updates: sendUserMessage, approveToolCall',
      ]);
      const metadata = await session.workflow.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
      expect(metadata.currentDetails).toContain('did you mean "userMessage"?');
      expect(metadata.currentDetails).toContain('did you mean "approveToolCall"?');
      // Nothing else changed: no message was queued, no run started.
      expect(await session.status()).toMatchObject({ status: 'idle', queuedMessages: 0, counters: { runs: 0 } });
      await session.end();
      await session.result();
    });
  });

  it('refuses malformed updates with non-retryable failures that say why, and writes nothing to history', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('update-refusals'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
      });
      const empty = await refusal(session.workflow.executeUpdate('sendUserMessage', { args: [{ text: ' ' }] }));
      expect([empty.type, empty.nonRetryable, empty.message]).toEqual([
        'InvalidUpdate',
        true,
        'sendUserMessage refused: the message is empty',
      ]);
      const misspelt = await refusal(session.workflow.executeUpdate('sendUserMessage', { args: [{ txt: 'hi' }] }));
      expect(misspelt.message).toBe(
        'sendUserMessage refused: text: missing (expected string); unknown key "txt" (did you mean "text"?)',
      );
      const unknownCall = await refusal(
        session.workflow.executeUpdate('approveToolCall', { args: [{ callId: 'c1', approved: true }] }),
      );
      expect([unknownCall.type, unknownCall.nonRetryable, unknownCall.message]).toEqual([
        'InvalidUpdate',
        true,
        'approveToolCall refused: no call c1 waits for approval (none waits now)',
      ]);
      const history = await readSessionHistory(session);
      expect(history.acceptedUpdates()).toEqual([]);
      await session.end();
      await session.result();
    });
  });

  it('takes the interrupt text as text (like userMessage), still as message, and refuses both when they differ', async () => {
    const chat = createScriptedModel([textResponse('One.'), textResponse('Two.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { chat } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('interrupt-text'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
      });
      const idleAfter = (runs: number) =>
        pollUntil(
          () => session.status(),
          (status) => status.status === 'idle' && status.counters.runs === runs,
        );
      await session.workflow.signal('interrupt', { text: 'first, as text' });
      await idleAfter(1);
      await session.workflow.signal('interrupt', { message: 'second, as message' });
      await idleAfter(2);
      await session.workflow.signal('interrupt', { text: 'this', message: 'that' });
      const transcript = await pollUntil(
        () => session.transcript(),
        (entries) => entriesOf(entries, 'notice').length === 1,
      );
      expect(entriesOf(transcript, 'user').map(({ text }) => text)).toEqual(['first, as text', 'second, as message']);
      expect(entriesOf(transcript, 'notice').map(({ text }) => text)).toEqual([
        '[toolrail] dropped an interrupt signal: give text (or its older name message), not both',
      ]);
      expect(chat.requests.map((request) => request.messages.at(-1))).toEqual([
        { role: 'user', text: 'first, as text' },
        { role: 'user', text: 'second, as message' },
      ]);
      await session.end();
      await session.result();
    });
  });

  it('between runs, the rule state says what the next run will allow, not that every tool is hidden', async () => {
    const rules = compileRules({
      toolrail: 1,
      rules: [
        { kind: 'max_count', tool: 'lookup', limit: 1, scope: 'run' },
        { kind: 'max_count', tool: 'audit', limit: 1, scope: 'session' },
      ],
    });
    const chat = createScriptedModel([
      toolCallResponse('lookup', {}),
      toolCallResponse('audit', {}),
      textResponse('Done.'),
    ]);
    const tools = [readOnlyTool('lookup'), readOnlyTool('audit')];
    await withSessionWorker({ connections, tools, scriptedModels: { chat } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('between-runs'),
        rules,
        model: { provider: 'scripted', model: 'chat' },
        firstMessage: 'Look it up',
      });
      await pollUntil(
        () => session.status(),
        (status) => status.status === 'idle' && status.counters.runs === 1,
      );
      const between = await session.ruleState();
      expect(between.phase).toBe('between-runs');
      // The run-scoped limit starts over in the next run; the session-scoped one does not.
      expect(between.rules.visible).toEqual(['lookup']);
      expect(between.rules.hidden.map(({ tool, reasons }) => [tool, reasons.map(({ code }) => code)])).toEqual([
        ['audit', ['max_count_reached']],
      ]);
      expect(between.rules.counts.map(({ tool, count }) => [tool, count])).toEqual([
        ['lookup', 0],
        ['audit', 1],
      ]);
      await session.end();
      expect((await session.ruleState()).phase).toBe('ended');
      await session.result();
    });
  });

  it('answers in pages no larger than asked for, which the client puts back together', async () => {
    const names = Array.from({ length: 80 }, (_, index) => `tool_number_${String(index).padStart(3, '0')}`);
    const rules = compileRules({
      toolrail: 1,
      rules: names.map((tool) => ({ kind: 'requires', tool, after: ['gate_tool_that_unlocks_all_the_others'] })),
    });
    const chat = createScriptedModel([textResponse('Nothing to do.')]);
    const tools = [...names, 'gate_tool_that_unlocks_all_the_others'].map(readOnlyTool);
    await withSessionWorker({ connections, tools, scriptedModels: { chat } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('pages'),
        rules,
        model: { provider: 'scripted', model: 'chat' },
        firstMessage: 'Hello',
      });
      await pollUntil(
        () => session.status(),
        (status) => status.status === 'idle' && status.counters.runs === 1,
      );
      const maxBytes = 16_384;
      const pages: RuleStatePage[] = [];
      let cursor: string | null = null;
      do {
        const page: RuleStatePage = await session.workflow.query(
          'ruleState',
          cursor ? { cursor, maxBytes } : { maxBytes },
        );
        expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(maxBytes);
        pages.push(page);
        cursor = page.next;
      } while (cursor !== null);
      expect(pages.length).toBeGreaterThan(1);
      const whole = await session.ruleState();
      expect(pages.flatMap((page) => page.rules.hidden)).toEqual(whole.rules.hidden);
      expect(whole.rules.hidden.map(({ tool }) => tool)).toEqual(names);

      const first: TranscriptPage = await session.workflow.query('transcript', { maxBytes: 16_384 });
      expect(first).toMatchObject({ more: false, skipped: 0 });
      const later: TranscriptPage = await session.workflow.query('transcript', { cursor: first.next });
      expect(later).toEqual({ entries: [], next: first.next, more: false, skipped: 0, start: 0 });
      await expect(session.workflow.query('transcript', { maxBytes: 10 })).rejects.toThrow(
        /transcript takes nothing or \{ cursor\?: string, maxBytes\?: number \}: maxBytes: Too small/,
      );
      await session.end();
      await session.result();
    });
  });
});
