import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';

/** One response of a scripted AI SDK mock model: tool calls, or a text answer. */
export type MockResponse =
  | { readonly calls: readonly { readonly id: string; readonly tool: string; readonly args?: unknown }[] }
  | { readonly text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function contentOf(response: MockResponse): LanguageModelV4Content[] {
  if ('text' in response) return [{ type: 'text', text: response.text }];
  return response.calls.map((call) => ({
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.tool,
    input: JSON.stringify(call.args ?? {}),
  }));
}

function finishOf(response: MockResponse) {
  return 'text' in response
    ? { unified: 'stop' as const, raw: 'stop' }
    : { unified: 'tool-calls' as const, raw: 'tool_use' };
}

function streamPartsOf(response: MockResponse): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in response) {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: response.text },
      { type: 'text-end', id: 't' },
    );
  } else {
    for (const call of response.calls) {
      parts.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.tool,
        input: JSON.stringify(call.args ?? {}),
      });
    }
  }
  parts.push({ type: 'finish', finishReason: finishOf(response), usage });
  return parts;
}

/**
 * The AI SDK's mock model playing back `responses` in order, through `doGenerate` and `doStream`
 * alike; it records each call's options (`calls`) and throws when the script runs out.
 */
export class MockModelScript {
  readonly calls: LanguageModelV4CallOptions[] = [];
  private next = 0;
  readonly model: MockLanguageModelV4;

  constructor(private readonly responses: readonly MockResponse[]) {
    this.model = new MockLanguageModelV4({
      doGenerate: (options) => {
        const response = this.take(options);
        return Promise.resolve({ content: contentOf(response), finishReason: finishOf(response), usage, warnings: [] });
      },
      doStream: (options) =>
        Promise.resolve({ stream: convertArrayToReadableStream(streamPartsOf(this.take(options))) }),
    });
  }

  /** How many responses are left. */
  get remaining(): number {
    return this.responses.length - this.next;
  }

  private take(options: LanguageModelV4CallOptions): MockResponse {
    this.calls.push(options);
    const response = this.responses[this.next];
    if (response === undefined) throw new Error(`the mock model's script ran out after ${this.next} responses`);
    this.next += 1;
    return response;
  }
}
