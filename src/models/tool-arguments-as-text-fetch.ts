/**
 * A `fetch` for OpenAI-compatible chat-completions servers that send a tool call's `arguments` as
 * a JSON object instead of JSON text (llama.cpp and TGI do): it rewrites such arguments to text in
 * JSON bodies and in server-sent events, so the official provider, which expects text, reads them.
 * Anything else passes through untouched. Give it to `createOpenAI({ fetch })` when you build such
 * a model yourself; the built-in `openai` provider uses it already.
 */
export function toolArgumentsAsTextFetch(fetchImplementation: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImplementation(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || response.body === null) return response;
    if (type.includes('application/json')) {
      const text = await response.text();
      return rebuilt(response, rewriteArguments(text));
    }
    if (type.includes('text/event-stream')) {
      const lines = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(splitLines())
        .pipeThrough(
          new TransformStream<string, string>({
            transform: (line, controller) => controller.enqueue(rewriteEventLine(line)),
          }),
        )
        .pipeThrough(new TextEncoderStream());
      return rebuilt(response, lines);
    }
    return response;
  };
}

/** A `data:` line of an event with its arguments rewritten (and its line break kept); any other line as it is. */
function rewriteEventLine(line: string): string {
  if (!line.startsWith('data:')) return line;
  const data = line.slice(5).trim();
  const rewritten = rewriteArguments(data);
  return rewritten === data ? line : `data: ${rewritten}${line.slice(line.trimEnd().length)}`;
}

function rebuilt(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Splits text into lines, each with its line break, so the stream's framing is kept. */
function splitLines(): TransformStream<string, string> {
  let pending = '';
  return new TransformStream({
    transform(chunk, controller) {
      pending += chunk;
      let end = pending.indexOf('\n');
      while (end !== -1) {
        controller.enqueue(pending.slice(0, end + 1));
        pending = pending.slice(end + 1);
        end = pending.indexOf('\n');
      }
    },
    flush(controller) {
      if (pending !== '') controller.enqueue(pending);
    },
  });
}

/**
 * The JSON text with every `choices[].message.tool_calls[].function.arguments` and
 * `choices[].delta.tool_calls[].function.arguments` that is not a string turned into JSON text; the
 * text unchanged when there is none (or it is not JSON).
 */
function rewriteArguments(text: string): string {
  if (!text.includes('"arguments"')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const choices = (parsed as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return text;
  for (const choice of choices as { message?: unknown; delta?: unknown }[]) {
    for (const holder of [choice?.message, choice?.delta]) {
      const calls = (holder as { tool_calls?: unknown } | undefined)?.tool_calls;
      if (!Array.isArray(calls)) continue;
      for (const call of calls as { function?: { arguments?: unknown } }[]) {
        const fn = call?.function;
        if (fn && fn.arguments !== undefined && fn.arguments !== null && typeof fn.arguments !== 'string') {
          fn.arguments = JSON.stringify(fn.arguments);
          changed = true;
        }
      }
    }
  }
  return changed ? JSON.stringify(parsed) : text;
}
