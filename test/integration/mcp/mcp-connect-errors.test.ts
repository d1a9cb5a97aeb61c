import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import { McpServerError } from '../../../src/tools/mcp/mcp-server-error';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import {
  everythingOverStdio,
  filesystemOverStdio,
  freePort,
  startEverythingOverHttp,
  type HttpReferenceServer,
} from './reference-servers';

/** What `connectMcpServer` threw, as an `McpServerError` (the test fails if it did not throw one). */
async function connectFailure(options: Parameters<typeof connectMcpServer>[0]): Promise<McpServerError> {
  const error: unknown = await connectMcpServer(options).then(
    async (connection) => {
      await connection.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  if (!McpServerError.isInstance(error)) throw new Error(`expected an McpServerError, got ${String(error)}`);
  return error;
}

describe('connecting to an MCP server that cannot serve', () => {
  it('names the server, the exit status and the last stderr lines when the script is missing', async () => {
    const error = await connectFailure({
      name: 'missing',
      transport: { type: 'stdio', command: process.execPath, args: ['/nonexistent/mcp-server.js'], stderr: 'ignore' },
    });
    expect(error.code).toBe('MCP_CONNECTION_FAILED');
    expect(error.message).toMatch(
      /^Could not connect to the MCP server "missing" \(.*\/nonexistent\/mcp-server\.js\): it exited with code 1/,
    );
    expect(error.message).toContain("Error: Cannot find module '/nonexistent/mcp-server.js'");
    expect(error.message).not.toContain('Connection closed');
  });

  it('says why server-filesystem refused a root that does not exist', async () => {
    const error = await connectFailure({ name: 'files', transport: filesystemOverStdio('/nonexistent/root') });
    expect(error.message).toContain('the MCP server "files"');
    expect(error.message).toContain('exited with code 1');
    expect(error.message).toContain('Error: None of the specified directories are accessible');
  });

  it('says a command could not be started', async () => {
    const error = await connectFailure({
      name: 'nothing',
      transport: { type: 'stdio', command: 'toolrail-no-such-mcp-server' },
    });
    expect(error.message).toContain('it could not be started (spawn toolrail-no-such-mcp-server ENOENT)');
  });

  it('names the URL and the network error of an endpoint nobody listens on', async () => {
    const port = await freePort();
    const error = await connectFailure({
      name: 'remote',
      transport: { type: 'streamable-http', url: `http://127.0.0.1:${port}/mcp?token=secret` },
    });
    expect(error.message).toBe(
      `Could not connect to the MCP server "remote" (http://127.0.0.1:${port}/mcp): it could not be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(error.message).not.toContain('fetch failed');
  });

  describe('against server-everything over Streamable HTTP', () => {
    let server: HttpReferenceServer;
    beforeAll(async () => {
      server = await startEverythingOverHttp(await freePort());
    });
    afterAll(async () => {
      await server.kill();
    });

    it('names the HTTP status of an endpoint that is not an MCP endpoint', async () => {
      const error = await connectFailure({
        name: 'remote',
        transport: { type: 'streamable-http', url: `http://127.0.0.1:${server.port}/not-mcp` },
      });
      expect(error.message).toContain(`(http://127.0.0.1:${server.port}/not-mcp): it answered HTTP 404 (`);
    });
  });
});

describe('options that cannot work', () => {
  it('refuses an unknown option with the nearest one', async () => {
    const error = await connectFailure({
      name: 'everything',
      transport: everythingOverStdio(),
      interruptBehaviour: 'cancel',
    } as Parameters<typeof connectMcpServer>[0]);
    expect(error).toMatchObject({
      code: 'MCP_OPTIONS_INVALID',
      message:
        'The MCP server "everything" cannot be connected: unknown option "interruptBehaviour" (did you mean "interruptBehavior"?)',
    });
  });

  it('refuses settings for a tool the server does not list, and leaves nothing registered', async () => {
    const registry = new ToolRegistry();
    const error = await connectFailure({
      name: 'everything',
      transport: everythingOverStdio(),
      registry,
      tools: { 'trigger-long-operation': { interruptBehavior: 'block' } },
    });
    expect(error.message).toBe(
      'The MCP server "everything" cannot be connected: "tools" names "trigger-long-operation", which the server does not list (did you mean "trigger-long-running-operation"?)',
    );
    expect(registry.list().map((tool) => tool.name)).toEqual(['tool_search']);
  });
});
