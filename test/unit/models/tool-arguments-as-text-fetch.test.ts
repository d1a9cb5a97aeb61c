import { describe, expect, it } from 'vitest';
import { toolArgumentsAsTextFetch } from '../../../src/models';

/** A fetch that answers with `body` and `contentType`, whatever it is asked. */
function answering(body: string, contentType: string): typeof fetch {
  return () => Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': contentType } }));
}

describe('toolArgumentsAsTextFetch', () => {
  it('rewrites object arguments of a chat completion to JSON text, and leaves the rest as it was', async () => {
    const completion = {
      choices: [
        {
          message: {
            tool_calls: [
              { id: 'a', function: { name: 'x', arguments: { orderId: 'A-1' } } },
              { id: 'b', function: { name: 'y', arguments: '{"ok":true}' } },
            ],
          },
        },
      ],
    };
    const fetch = toolArgumentsAsTextFetch(answering(JSON.stringify(completion), 'application/json'));
    const read = (await (await fetch('http://server/v1/chat/completions')).json()) as typeof completion;
    expect(read.choices[0]?.message.tool_calls.map((call) => call.function.arguments)).toEqual([
      '{"orderId":"A-1"}',
      '{"ok":true}',
    ]);
    const untouched = '{"choices":[{"message":{"content":"hi"}}]}';
    expect(await (await toolArgumentsAsTextFetch(answering(untouched, 'application/json'))('x')).text()).toBe(
      untouched,
    );
  });

  it('rewrites object arguments in server-sent events, keeping every other line and the framing', async () => {
    const events = [
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"a":1}}}]}}]}',
      '',
      ': a comment',
      'data: {"choices":[{"delta":{"content":"hi"}}]}',
      '',
      'data: [DONE]',
      '',
      '',
    ].join('\n');
    const fetch = toolArgumentsAsTextFetch(answering(events, 'text/event-stream'));
    expect(await (await fetch('x')).text()).toBe(events.replace('"arguments":{"a":1}', '"arguments":"{\\"a\\":1}"'));
  });
});
