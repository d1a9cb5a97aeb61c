import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema } from 'ai';
import type { UIMessage, UIMessageChunk } from 'ai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLiveChannel } from '../../../src/live';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { deployScript, deployTools, deployedAnswer, startFeedServer } from '../../fixtures/live-feed-scenario';

/** One parsed SSE message: a chunk that matches the AI SDK's schema, or the error saying why not. */
type ParsedChunk = ReturnType<typeof parseJsonEventStream<UIMessageChunk>> extends ReadableStream<infer T> ? T : never;

/**
 * The example route's SSE stream, read by the AI SDK's own reader (`parseJsonEventStream` with the
 * SDK's chunk schema, then `readUIMessageStream`), as a `useChat` front end would: each run is one
 * assistant message whose parts are the streamed text, the tool calls with their outputs or
 * errors, and toolrail's own data parts.
 */
describe.each([
  { channel: 'without a live channel', live: false },
  { channel: 'through the local live channel', live: true },
])("a session's feed as the AI SDK's UI message stream, $channel", ({ live }) => {
  let connections: HarnessConnections;
  let directory: string;
  const channels: LocalLiveChannel[] = [];
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-ui-live-'));
  });
  afterAll(async () => {
    await Promise.all(channels.map((channel) => channel.close()));
    await connections.close();
    rmSync(directory, { recursive: true, force: true });
  });
  /** The worker's and the route's channels (each its own, as separate processes have), when live. */
  const liveChannels = () => {
    if (!live) return {};
    const [workerLive, clientLive] = [new LocalLiveChannel({ directory }), new LocalLiveChannel({ directory })];
    channels.push(workerLive, clientLive);
    return { workerLive, clientLive };
  };

  it('reads as one valid UI message per run, with text, a refused call and its reasons, an approval and the answer', async () => {
    const probe = new ToolProbe();
    await withSessionWorker(
      { connections, tools: deployTools(probe), scriptedModels: { deploy: deployScript() }, ...liveChannels() },
      async ({ client }) => {
        const server = await startFeedServer(client, 'deploy');
        try {
          const sessionId = uniqueName('feed-ui-stream');
          const sent = await fetch(`${server.url}/sessions/${sessionId}/messages`, {
            method: 'POST',
            body: JSON.stringify({ text: 'Deploy the service.' }),
          });
          expect(await sent.json()).toEqual({ offset: 0 });
          const response = await fetch(`${server.url}/sessions/${sessionId}/stream`);
          expect(response.headers.get('content-type')).toBe('text/event-stream');
          expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
          if (response.body === null) throw new Error('the stream has no body');
          const approved: string[] = [];
          const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
            new TransformStream<ParsedChunk, UIMessageChunk>({
              async transform(parsed, controller) {
                if (!parsed.success) throw parsed.error;
                const chunk = parsed.value;
                // A human approves the deploy as soon as the stream shows it waiting.
                if (chunk.type === 'data-approval' && (chunk.data as { state?: string }).state === 'requested') {
                  const { callId } = chunk.data as { callId: string };
                  approved.push(callId);
                  await fetch(`${server.url}/sessions/${sessionId}/approvals/${callId}`, {
                    method: 'POST',
                    body: JSON.stringify({ approved: true }),
                  });
                }
                controller.enqueue(chunk);
                // The session waits for the next message: the reader is done once the run has ended.
                if (chunk.type === 'data-run-ended') controller.terminate();
              },
            }),
          );
          const messages = new Map<string, UIMessage>();
          for await (const message of readUIMessageStream({ stream: chunks, terminateOnError: true }))
            messages.set(message.id, message);

          expect(approved).toEqual(['deploy_1']);
          expect([...messages.keys()]).toEqual([`${sessionId}/run-1`]);
          const parts = messages.get(`${sessionId}/run-1`)?.parts ?? [];
          const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
          expect(texts).toEqual(['Deploying right away.', deployedAnswer]);
          const tools = parts.flatMap((part) => (part.type === 'dynamic-tool' ? [part] : []));
          expect(tools.map(({ toolCallId, toolName, state }) => ({ toolCallId, toolName, state }))).toEqual([
            { toolCallId: 'deploy_early', toolName: 'deploy', state: 'output-error' },
            { toolCallId: 'check_1', toolName: 'check', state: 'output-available' },
            { toolCallId: 'deploy_1', toolName: 'deploy', state: 'output-available' },
          ]);
          const refused = tools[0];
          expect(refused?.state === 'output-error' && refused.errorText).toMatch(/\[prerequisite_not_met\].*check/);
          expect(tools[2]).toMatchObject({
            input: { answer: 'deployed to production' },
            output: 'deployed to production',
          });
          const data = (type: string) =>
            parts.filter((part) => part.type === type).map((part) => (part as { data: unknown }).data);
          expect(data('data-verdict')).toEqual([
            expect.objectContaining({ callId: 'deploy_early', verdict: 'blocked' }),
            expect.objectContaining({ callId: 'check_1', verdict: 'allowed' }),
            expect.objectContaining({ callId: 'deploy_1', verdict: 'allowed' }),
          ]);
          expect(data('data-approval')).toEqual([
            expect.objectContaining({ callId: 'deploy_1', tool: 'deploy', state: 'approved' }),
          ]);
          expect(data('data-tools')[0]).toMatchObject({
            hidden: [expect.objectContaining({ tool: 'deploy' })],
          });
          expect(data('data-run-ended')).toMatchObject([{ run: 1, reason: 'answered', usage: { modelCalls: 4 } }]);
          expect(parts.filter((part) => part.type === 'step-start')).toHaveLength(4);

          // What the route refuses, it says why: the session's own refusal, and a session that does not exist.
          const empty = await fetch(`${server.url}/sessions/${sessionId}/messages`, {
            method: 'POST',
            body: JSON.stringify({ text: '  ' }),
          });
          expect(empty.status).toBe(400);
          expect(await empty.json()).toEqual({ error: 'sendUserMessage refused: the message is empty' });
          const unknown = await fetch(`${server.url}/sessions/${uniqueName('no-such-session')}/stream`);
          expect(unknown.status).toBe(404);
          await client.getSession(sessionId).end();
        } finally {
          await server.close();
        }
      },
    );
  });
});
