import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import { ToolrailClient } from '../../src/client/toolrail-client';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { openContentStore } from '../../src/store/open-content-store';
import { defineTool } from '../../src/tools';
import { createWorker } from '../../src/worker/create-worker';
import { emptyRules } from '../dispatch/measure-on-server';

/** Model calls per session, each streaming its text for `words × wordMs` before it answers. */
const turns = 10;
const words = 60;
const wordMs = 50;

/**
 * What streamed text costs in history: the same sessions (ten model calls that each stream their
 * text for 3 s, then call a tool) on a worker that sends it to the live feed (one signal per 500 ms
 * of streaming) and on one that does not (`feedText: false`), side by side.
 */
export async function measureTextDeltaCost({
  client,
  nativeConnection,
  namespace,
  directory,
}: {
  client: Client;
  nativeConnection: NativeConnection;
  namespace: string;
  directory: string;
}): Promise<void> {
  const sent = await historyOf(true);
  const notSent = await historyOf(false);
  const kb = (bytes: number): string => `${(bytes / 1_000).toFixed(1)} KB`;
  const perSignal = sent.signals > 0 ? (sent.bytes - notSent.bytes) / sent.signals : 0;
  process.stdout.write(
    [
      '',
      `streamed text in the feed: ${turns} model calls, each streaming ${((words * wordMs) / 1000).toFixed(1)} s of text`,
      '| text deltas | modelText signals per model call | history per model call | history per signal (its event, its workflow task and the text) |',
      '|---|---|---|---|',
      `| to the feed (every 500 ms) | ${(sent.signals / turns).toFixed(1)} | ${kb(sent.bytes / turns)} | ${perSignal.toFixed(0)} B |`,
      `| off (\`feedText: false\`) | ${(notSent.signals / turns).toFixed(1)} | ${kb(notSent.bytes / turns)} | – |`,
      '',
    ].join('\n'),
  );

  async function historyOf(feedText: boolean): Promise<{ bytes: number; signals: number }> {
    const taskQueue = `bench-text-${feedText ? 'feed' : 'off'}`;
    const readPage = defineTool({
      name: 'read_page',
      description: 'Reads one page.',
      inputSchema: z.object({ page: z.number().int() }),
      concurrency: 'READ_ONLY',
      execute: ({ page }) => Promise.resolve(`page ${page}`),
    });
    const store = openContentStore(directory);
    const worker = await createWorker({
      connection: nativeConnection,
      namespace,
      taskQueue,
      tools: [readPage],
      models: { streaming: { model: streamingModel(), stream: true } },
      contentStore: store,
      ...(feedText ? {} : { feedText: false as const }),
    });
    const toolrail = new ToolrailClient({ client, taskQueue, contentStore: store });
    await worker.runUntil(async () => {
      const session = await toolrail.startSession({
        sessionId: taskQueue,
        rules: emptyRules(),
        model: { id: 'streaming' },
        firstMessage: 'Read the pages.',
        interactive: false,
      });
      await session.result();
    });
    const history = await client.workflow.getHandle(taskQueue).fetchHistory();
    let bytes = 0;
    let signals = 0;
    for (const event of history.events ?? []) {
      bytes += temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      if (event.workflowExecutionSignaledEventAttributes?.signalName === 'modelText') signals += 1;
    }
    return { bytes, signals };
  }
}

/** A model that streams its text word by word (one every `wordMs`), then calls `read_page`, or answers on the last turn. */
function streamingModel(): LanguageModelV4 {
  const usage = {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'streaming',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench model only streams')),
    doStream: ({ prompt, abortSignal }) => {
      // The turn: how many times it answered before in this conversation.
      const turn = prompt.filter((message) => message.role === 'assistant').length;
      let word = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (word === 0) controller.enqueue({ type: 'text-start', id: 't' });
          if (word < words) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: `word${word} ` });
            word += 1;
            await sleep(wordMs, undefined, { signal: abortSignal });
            return;
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          const last = turn >= turns - 1;
          if (!last)
            controller.enqueue({
              type: 'tool-call',
              toolCallId: `call_${turn}`,
              toolName: 'read_page',
              input: JSON.stringify({ page: turn }),
            });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: last ? 'stop' : 'tool-calls', raw: undefined },
            usage,
          });
          controller.close();
        },
      });
      return Promise.resolve({ stream });
    },
  };
}
