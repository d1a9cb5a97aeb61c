import { describe, expect, it } from 'vitest';
import { connectMcpServer } from '../../../../src/tools/mcp/connect-mcp-server';
import type { ConnectMcpServerOptions } from '../../../../src/tools/mcp/connect-mcp-server';
import { McpServerError } from '../../../../src/tools/mcp/mcp-server-error';

/** Options are checked before anything is started: a command that would fail is never run. */
const transport = { type: 'stdio', command: 'toolrail-never-started' } as const;

async function refusal(options: object): Promise<string> {
  const error: unknown = await connectMcpServer(options as ConnectMcpServerOptions).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!McpServerError.isInstance(error)) throw new Error(`expected an McpServerError, got ${String(error)}`);
  expect(error.code).toBe('MCP_OPTIONS_INVALID');
  return error.message;
}

describe('connectMcpServer options', () => {
  it.each([
    [
      { name: 'x', transport, trustAnnotation: false },
      'unknown option "trustAnnotation" (did you mean "trustAnnotations"?)',
    ],
    [{ name: 'x', transport, interruptBehavior: 'stop' }, 'interruptBehavior must be "cancel" or "block"'],
    [{ name: 'x', transport, requiresPermission: 'no' }, 'requiresPermission must be true or false'],
    [{ name: 'x', transport, toolTimeoutMs: 0 }, 'toolTimeoutMs must be a positive integer (milliseconds)'],
    [
      { name: 'x', transport, reconnect: { maxDelay: 5 } },
      'unknown option "reconnect.maxDelay" (did you mean "reconnect.maxDelayMs"?)',
    ],
    [
      { name: 'x', transport, tools: { echo: { interruptbehavior: 'cancel' } } },
      'unknown option "tools.echo.interruptbehavior" (did you mean "interruptBehavior"?)',
    ],
    [{ name: 'x', transport, tools: { echo: { timeoutMs: -1 } } }, 'tools.echo.timeoutMs must be a positive integer'],
    [{ name: '', transport }, 'the name must be a non-empty string'],
    [{ name: 'x', transport: { type: 'sse', url: 'http://x' } }, 'transport.type must be "stdio" or "streamable-http"'],
  ])('refuses %j: %s', async (options, problem) => {
    expect(await refusal(options)).toContain(problem);
  });
});
