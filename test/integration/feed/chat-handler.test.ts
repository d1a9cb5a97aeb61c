import { Chat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, validateUIMessages } from 'ai';
import type { DynamicToolUIPart, UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionHandle } from '../../../src/client/session-handle';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { FeedEvent } from '../../../src/session';
import { chatTools, orderLookup, reportChars, startChatServer } from '../../fixtures/chat-scenario';
import { deployedAnswer } from '../../fixtures/live-feed-scenario';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { startBackgroundWorker } from '../../e2e/support/background-worker';
import type { BackgroundWorker } from '../../e2e/support/background-worker';
import { chatUntil } from '../../helpers/chat-until';
import { recordingFetch } from '../../helpers/recording-fetch';
import { ToolProbe } from '../../helpers/tool-probe';

/** The tool parts of a chat message. */
function toolParts(message: UIMessage | undefined): DynamicToolUIPart[] {
  return (message?.parts ?? []).filter((part): part is DynamicToolUIPart => part.type === 'dynamic-tool');
}

function texts(message: UIMessage | undefined): string[] {
  return (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** The session's feed from its start until `until` holds for an event (that event included). */
async function feedUntil(session: SessionHandle, until: (event: FeedEvent) => boolean): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for await (const event of session.events()) {
    events.push(event);
    if (until(event)) break;
  }
  return events;
}

/**
 * The AI SDK's own client drives sessions through `createChatHandler` over real HTTP: the `Chat`
 * class with `DefaultChatTransport` (a copy of each stream read with the SDK's `uiMessageChunkSchema`)
 * sends messages, approves and denies with `addToolApprovalResponse`, stops, and resumes after its
 * connection drops, against real sessions on the dev server.
 */
describe('a session behind the AI SDK Chat', () => {
  let connections: HarnessConnections;
  let worker: BackgroundWorker;
  let server: Awaited<ReturnType<typeof startChatServer>>;
  const probe = new ToolProbe();
  const sessions: SessionHandle[] = [];

  beforeAll(async () => {
    connections = await connectToHarness();
    worker = await startBackgroundWorker({
      connections,
      tools: chatTools(probe),
      scriptedModels: {
        'chat-deploy': createScriptedModel([
          toolCallResponse('deploy', { answer: 'deployed' }, { id: 'deploy_early', text: 'Deploying right away.' }),
          toolCallResponse('lookup_order', { order_id: 'A1' }, { id: 'lookup_1' }),
          toolCallResponse('read_report', {}, { id: 'report_1' }),
          toolCallResponse('check', { answer: 'all checks pass' }, { id: 'check_1' }),
          toolCallResponse('deploy', { answer: 'deployed to production' }, { id: 'deploy_1' }),
          textResponse(deployedAnswer, { delayMs: 500 }),
          toolCallResponse('check', { answer: 'all checks pass' }, { id: 'check_2' }),
          toolCallResponse('deploy', { answer: 'deployed again' }, { id: 'deploy_2' }),
          textResponse('Not deployed: the deploy was denied.'),
        ]),
        'chat-stop': createScriptedModel([textResponse('Thinking about it, at length…', { delayMs: 600_000 })]),
        'chat-resume': createScriptedModel([
          toolCallResponse('check', { hold: true, answer: 'checked' }, { id: 'hold_1', text: 'Working on it.' }),
          textResponse('Done working.'),
        ]),
      },
    });
    server = await startChatServer(worker.client, {
      '/api/chat': { reconnectWindowMs: 60_000 },
      '/stop-api/chat': { reconnectWindowMs: 100 },
    });
  });
  afterAll(async () => {
    await server?.close();
    for (const session of sessions) await session.workflow.terminate('test over').catch(() => undefined);
    await worker?.stop();
    await connections?.close();
  });

  it('sends, streams, approves and denies with addToolApprovalResponse, and sends a second message, in valid UI messages', async () => {
    const chatId = `chat-deploy--${uniqueName('chat')}`;
    const session = worker.client.getSession(chatId);
    sessions.push(session);
    const { fetch, record } = recordingFetch();
    const api = `${server.url}/api/chat`;
    const chat = new Chat<UIMessage>({
      id: chatId,
      transport: new DefaultChatTransport({ api, fetch }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });

    // The first message starts the session; its stream finishes where the run waits for a human.
    await chat.sendMessage({ text: 'Deploy the service.' });
    expect(chat.error).toBeUndefined();
    const waiting = toolParts(chat.lastMessage).find((part) => part.toolCallId === 'deploy_1');
    expect(waiting).toMatchObject({
      toolName: 'deploy',
      state: 'approval-requested',
      approval: { id: expect.any(String) as unknown },
    });
    expect(record.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'tool-calls' });

    // An approval for a call that does not wait is refused, and the call that waits still does.
    const bogus = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: chatId,
        trigger: 'submit-message',
        messages: [
          ...chat.messages.slice(0, -1),
          {
            ...chat.lastMessage,
            parts: [
              {
                type: 'dynamic-tool',
                toolName: 'deploy',
                toolCallId: 'deploy_9',
                state: 'approval-responded',
                input: {},
                approval: { id: 'approval-deploy_9', approved: true },
              },
            ],
          },
        ],
      }),
    });
    expect(bogus.status).toBe(409);
    expect(await bogus.json()).toMatchObject({
      code: 'CHAT_APPROVAL_NOT_WAITING',
      message: expect.stringMatching(/deploy_9/) as unknown,
    });
    expect((await session.ruleState()).pendingApprovals.map(({ callId }) => callId)).toEqual(['deploy_1']);

    // The AI SDK's own approval: the chat sends it by itself, and the run goes on in the same message.
    if (waiting?.state !== 'approval-requested') throw new Error('deploy_1 does not wait');
    await chat.addToolApprovalResponse({ id: waiting.approval.id, approved: true });
    await chatUntil(chat, (c) => c.status === 'ready' && texts(c.lastMessage).includes(deployedAnswer));

    const first = chat.lastMessage;
    expect(first?.id).toBe(`${chatId}/run-1`);
    expect(texts(first)).toEqual(['Deploying right away.', deployedAnswer]);
    const tools = toolParts(first);
    expect(tools.map(({ toolCallId, state }) => [toolCallId, state])).toEqual([
      ['deploy_early', 'output-error'],
      ['lookup_1', 'output-available'],
      ['report_1', 'output-available'],
      ['check_1', 'output-available'],
      ['deploy_1', 'output-available'],
    ]);
    const [refused, lookup, report, , deployed] = tools;
    expect(refused?.errorText).toMatch(/\[prerequisite_not_met\].*check/);
    // Outputs are the values the tools returned: an object stays an object, an offloaded one is its preview and key.
    expect(lookup?.output).toEqual(orderLookup);
    expect(report?.output).toEqual({
      offloaded: { key: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown, chars: reportChars },
      preview: expect.stringMatching(/^report line\. report line\./) as unknown,
    });
    expect(deployed).toMatchObject({ output: 'deployed to production', approval: { approved: true } });
    const data = (type: string) =>
      (first?.parts ?? []).filter((part) => part.type === type).map((part) => (part as { data: unknown }).data);
    expect(data('data-verdict')).toEqual(
      ['deploy_early', 'lookup_1', 'report_1', 'check_1', 'deploy_1'].map(
        (callId) =>
          expect.objectContaining({ callId, verdict: callId === 'deploy_early' ? 'blocked' : 'allowed' }) as unknown,
      ),
    );
    expect(data('data-tools')[0]).toMatchObject({ hidden: [expect.objectContaining({ tool: 'deploy' })] });
    expect(data('data-run-ended')).toMatchObject([{ run: 1, reason: 'answered' }]);

    // A second message: a new run, a new assistant message; this time the deploy is denied.
    await chat.sendMessage({ text: 'Deploy it again.' });
    const again = toolParts(chat.lastMessage).find((part) => part.toolCallId === 'deploy_2');
    if (again?.state !== 'approval-requested') throw new Error(`deploy_2 does not wait: ${JSON.stringify(again)}`);
    await chat.addToolApprovalResponse({ id: again.approval.id, approved: false, reason: 'Not today.' });
    await chatUntil(
      chat,
      (c) => c.status === 'ready' && texts(c.lastMessage).includes('Not deployed: the deploy was denied.'),
    );
    expect(chat.messages.map(({ id, role }) => (role === 'user' ? 'user' : id))).toEqual([
      'user',
      `${chatId}/run-1`,
      'user',
      `${chatId}/run-2`,
    ]);
    expect(toolParts(chat.lastMessage).find((part) => part.toolCallId === 'deploy_2')).toMatchObject({
      state: 'output-denied',
      approval: { approved: false, reason: 'Not today.' },
    });
    expect(probe.runsOf('deploy_2')).toEqual([]);
    const decisions = (await session.transcript()).flatMap((entry) =>
      entry.kind === 'approval' ? [[entry.callId, entry.decision, entry.reason]] : [],
    );
    expect(decisions).toEqual([
      ['deploy_1', 'approved', undefined],
      ['deploy_2', 'denied', 'Not today.'],
    ]);

    // Every chunk passed the AI SDK's chunk schema, and the chat's messages are valid UI messages.
    expect(record.invalid).toEqual([]);
    expect(record.chunks.length).toBeGreaterThan(40);
    await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(4);

    // No run in progress: nothing to resume.
    const idle = await fetch(`${api}/${encodeURIComponent(chatId)}/stream`);
    expect(idle.status).toBe(204);

    // The session ended: a new message is refused, and says why.
    await session.end();
    await session.result();
    await chat.sendMessage({ text: 'Hello again.' });
    expect(chat.status).toBe('error');
    expect(JSON.parse(chat.error?.message ?? '{}')).toMatchObject({ code: 'CHAT_ENDED' });
  });

  it("stops the session's run when the chat stops", async () => {
    const chatId = `chat-stop--${uniqueName('chat')}`;
    const session = worker.client.getSession(chatId);
    sessions.push(session);
    const chat = new Chat<UIMessage>({
      id: chatId,
      transport: new DefaultChatTransport({ api: `${server.url}/stop-api/chat` }),
    });
    const sent = chat.sendMessage({ text: 'Think it over.' });
    await chatUntil(chat, (c) => texts(c.lastMessage).some((text) => text.startsWith('Thinking')));
    await chat.stop();
    await sent;
    expect(chat.status).toBe('ready');
    const events = await feedUntil(session, (event) => event.type === 'run_ended');
    expect(events.at(-1)).toMatchObject({ type: 'run_ended', reason: 'interrupted' });
  });

  it('resumes the run where it is after the connection drops, in the same message', async () => {
    const chatId = `chat-resume--${uniqueName('chat')}`;
    const session = worker.client.getSession(chatId);
    sessions.push(session);
    const { fetch, record } = recordingFetch();
    const chat = new Chat<UIMessage>({
      id: chatId,
      transport: new DefaultChatTransport({ api: `${server.url}/api/chat`, fetch }),
    });
    // The connection drops once the held call shows; the call goes on in the session.
    const dropped = record.dropWhen((chunk) => chunk.type === 'tool-input-available' && chunk.toolCallId === 'hold_1');
    await chat.sendMessage({ text: 'Work on it.' });
    await dropped;
    expect(chat.status).toBe('error');
    await probe.started('hold_1');

    const resumed = chat.resumeStream();
    await chatUntil(chat, (c) => c.status === 'streaming' && toolParts(c.lastMessage).length === 1);
    probe.release('hold_1');
    await resumed;

    expect(chat.status).toBe('ready');
    expect(chat.messages.map(({ id }) => id).slice(1)).toEqual([`${chatId}/run-1`]);
    expect(texts(chat.lastMessage)).toEqual(['Working on it.', 'Done working.']);
    expect(toolParts(chat.lastMessage)).toEqual([
      expect.objectContaining({ toolCallId: 'hold_1', state: 'output-available', output: 'checked' }),
    ]);
    expect(record.invalid).toEqual([]);
    await validateUIMessages({ messages: chat.messages });
    const events = await feedUntil(session, (event) => event.type === 'run_ended');
    expect(events.at(-1)).toMatchObject({ type: 'run_ended', reason: 'answered' });
    expect(events.filter((event) => event.type === 'interrupt_received')).toEqual([]);
  });

  it('refuses what it cannot take, with a code and what to do, and changes nothing', async () => {
    const api = `${server.url}/api/chat`;
    const post = (body: unknown) =>
      fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const unknown = await fetch(`${api}/${uniqueName('no-such-chat')}/stream`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'CHAT_NOT_FOUND' });

    const notJson = await fetch(api, { method: 'POST', body: '{' });
    expect([notJson.status, ((await notJson.json()) as { code: string }).code]).toEqual([400, 'CHAT_BAD_REQUEST']);
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
    const regenerate = await post({ id: 'chat-x', messages: [user], trigger: 'regenerate-message' });
    expect(await regenerate.json()).toMatchObject({
      code: 'CHAT_BAD_REQUEST',
      message: expect.stringMatching(/regenerate/) as unknown,
    });

    const chatId = `chat-deploy--${uniqueName('chat')}`;
    const empty = await post({
      id: chatId,
      trigger: 'submit-message',
      messages: [{ ...user, parts: [{ type: 'text', text: ' ' }] }],
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      code: 'CHAT_MESSAGE_REFUSED',
      message: expect.stringMatching(/empty/) as unknown,
    });
    await expect(worker.client.getSession(chatId).workflow.describe()).rejects.toThrow(/not found/i);
  });
});
