import { parseJsonEventStream, uiMessageChunkSchema } from 'ai';
import type { UIMessageChunk } from 'ai';

/** What {@link recordingFetch} saw: each stream's chunks, each checked with the AI SDK's `uiMessageChunkSchema`. */
export interface FetchRecord {
  /** Every chunk of every stream, in order. */
  chunks: UIMessageChunk[];
  /** What did not pass `uiMessageChunkSchema` (its error). */
  invalid: unknown[];
  /** Drops the connection of a stream once one of its chunks passes `when`; resolves then. */
  dropWhen(when: (chunk: UIMessageChunk) => boolean): Promise<void>;
}

/**
 * A `fetch` for the AI SDK's `DefaultChatTransport` that reads a copy of every UI message stream
 * with the SDK's own `parseJsonEventStream` and `uiMessageChunkSchema`, and can drop a connection
 * mid-stream as a network failure does: the server sees its client go, the chat a `TypeError`.
 */
export function recordingFetch(): { fetch: typeof fetch; record: FetchRecord } {
  const chunks: UIMessageChunk[] = [];
  const invalid: unknown[] = [];
  let drop: { when: (chunk: UIMessageChunk) => boolean; dropped: () => void } | undefined;
  const record: FetchRecord = {
    chunks,
    invalid,
    dropWhen: (when) => new Promise<void>((dropped) => (drop = { when, dropped })),
  };
  const recording: typeof fetch = async (input, init) => {
    const cut = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
    const response = await fetch(input, { ...init, signal });
    if (response.body === null || response.headers.get('content-type') !== 'text/event-stream') return response;
    const [mine, theirs] = response.body.tee();
    void (async () => {
      const parsed = parseJsonEventStream({ stream: mine, schema: uiMessageChunkSchema }).getReader();
      try {
        for (;;) {
          const { done, value } = await parsed.read();
          if (done) return;
          if (!value.success) invalid.push(value.error);
          else chunks.push(value.value);
          if (value.success && drop?.when(value.value)) {
            const { dropped } = drop;
            drop = undefined;
            cut.abort();
            dropped();
            return;
          }
        }
      } catch {
        // The connection was dropped, or the chat stopped it.
      }
    })();
    const reader: ReadableStreamDefaultReader<Uint8Array> = theirs.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (cut.signal.aborted) controller.error(new TypeError('network error'));
          else if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(cut.signal.aborted ? new TypeError('network error') : error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: recording, record };
}
