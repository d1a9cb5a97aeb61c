import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { McpTransportOptions } from '../../../src/tools/mcp/mcp-transport-options';

/** The fixture MCP server's source file. */
export const fixtureServerPath = fileURLToPath(new URL('../../fixtures/mcp/fixture-server.ts', import.meta.url));

/** How to start the fixture server over stdio, as the bridge's transport options. */
export const stdioFixture: McpTransportOptions = {
  type: 'stdio',
  command: 'npx',
  args: ['tsx', fixtureServerPath],
  stderr: 'ignore',
};

/** A fixture server serving streamable HTTP on a free loopback port. */
export interface HttpFixture {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the fixture server with `--http` and waits for it to print its URL. */
export async function startHttpFixture(): Promise<HttpFixture> {
  // A process group of its own: stopping it stops npx, tsx and the server under them alike.
  const child = spawn('npx', ['tsx', fixtureServerPath, '--http'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = /LISTENING (\S+)/.exec(buffered);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.once('exit', (code) =>
      reject(new Error(`fixture server exited (${String(code)}) before listening: ${errors}`)),
    );
  });
  return { url, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // The group is gone already.
  }
  await exited;
}
