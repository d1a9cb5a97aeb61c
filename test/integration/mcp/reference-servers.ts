import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpTransportOptions } from '../../../src/tools/mcp/mcp-transport-options';

/**
 * The official MCP reference servers, installed from the npm registry as devDependencies, started the
 * way their READMEs say (their `bin` under the current Node), plus what the tests need around them:
 * a free port, a record of what a server received, and stopping them.
 */
const require = createRequire(import.meta.url);

/** The `bin` script of a reference server package. */
function binOf(packageName: string): string {
  const manifest = require.resolve(`${packageName}/package.json`);
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const [script] = Object.values(bin);
  if (script === undefined) throw new Error(`${packageName} declares no bin`);
  return path.join(path.dirname(manifest), script);
}

export const everythingBin = binOf('@modelcontextprotocol/server-everything');
export const filesystemBin = binOf('@modelcontextprotocol/server-filesystem');
export const memoryBin = binOf('@modelcontextprotocol/server-memory');

/** The stdin recorder (see the script): the server's own process, with every message it received kept in a file. */
const recorderScript = fileURLToPath(new URL('../../fixtures/mcp/record-stdin.mjs', import.meta.url));

/** `server-everything` over stdio; with `recordTo`, every message it receives is also appended to that file. */
export function everythingOverStdio({ recordTo }: { recordTo?: string } = {}): McpTransportOptions {
  const server = [everythingBin, 'stdio'];
  return {
    type: 'stdio',
    command: process.execPath,
    args: recordTo === undefined ? server : [recorderScript, recordTo, '--', process.execPath, ...server],
    stderr: 'ignore',
  };
}

/** `server-filesystem` over stdio, serving the given directories. */
export function filesystemOverStdio(...roots: string[]): McpTransportOptions {
  return { type: 'stdio', command: process.execPath, args: [filesystemBin, ...roots], stderr: 'ignore' };
}

/** `server-memory` over stdio, keeping its knowledge graph in `file`. */
export function memoryOverStdio(file: string): McpTransportOptions {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [memoryBin],
    env: { MEMORY_FILE_PATH: file },
    stderr: 'ignore',
  };
}

/** A free TCP port on the loopback interface (nothing listens on it when this returns). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A reference server serving Streamable HTTP in a process of its own. */
export interface HttpReferenceServer {
  readonly url: string;
  readonly port: number;
  /** Ends the process with `signal` (SIGKILL: it dies mid-session) and waits for it. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `server-everything streamableHttp` on `port` and waits until it listens. */
export async function startEverythingOverHttp(port: number): Promise<HttpReferenceServer> {
  const child = spawn(process.execPath, [everythingBin, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
      if (errors.includes(`listening on port ${port}`)) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`server-everything exited (${String(code)}) before listening: ${errors}`)),
    );
  });
  return { url: `http://127.0.0.1:${port}/mcp`, port, kill: (signal = 'SIGTERM') => stopProcess(child, signal) };
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

/** The JSON-RPC messages in a record (one per line, as the stdio transport frames them). */
export async function recordedMessages(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
