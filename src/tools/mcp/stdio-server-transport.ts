import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Lines of a server's stderr kept for error messages (JavaScript stack frames not counted). */
const STDERR_TAIL_LINES = 10;
/** A JavaScript stack frame (`    at f (file:1:2)`): left out, so the error line above it stays in the tail. */
const STACK_FRAME = /^\s+at\s/;
/** Characters of one stderr line kept for error messages. */
const STDERR_LINE_CHARS = 200;
/** How long `close` waits for the process at each step (stdin closed, SIGTERM) before the next one, in ms. */
const CLOSE_STEP_MS = 2_000;

/** What starts an MCP server process: the stdio transport options. */
export interface StdioServerCommand {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Whether the server's stderr is also written to this process's stderr (it is always kept for errors). */
  readonly forwardStderr: boolean;
}

/** How a server process ended: its exit code, or the signal that ended it. */
export interface ServerProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The MCP stdio transport (newline-delimited JSON-RPC on the child's stdin and stdout, as the SDK's
 * `StdioClientTransport`, with its framing and default environment), keeping what that one drops:
 * why the process could not start, how it ended (exit code or signal) and the last lines of its
 * stderr, so that errors can say why a server is gone.
 */
export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #command: StdioServerCommand;
  readonly #readBuffer = new ReadBuffer();
  readonly #stderrLines: string[] = [];
  #partialStderrLine = '';
  #process: ChildProcess | undefined;
  #exit: ServerProcessExit | undefined;
  #spawnError: Error | undefined;

  constructor(command: StdioServerCommand) {
    this.#command = command;
  }

  /** The server process's id while it runs. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ServerProcessExit | undefined {
    return this.#exit;
  }

  /** Why the process could not be started (e.g. `spawn foo ENOENT`), if it could not. */
  get spawnError(): Error | undefined {
    return this.#spawnError;
  }

  /**
   * The last lines the process wrote to stderr (at most 10, each cut to 200 characters; JavaScript
   * stack frames left out).
   */
  get stderrTail(): readonly string[] {
    const partial = this.#partialStderrLine.trim();
    return [...this.#stderrLines, ...(partial === '' ? [] : [partial.slice(0, STDERR_LINE_CHARS)])].slice(
      -STDERR_TAIL_LINES,
    );
  }

  start(): Promise<void> {
    if (this.#process !== undefined || this.#exit !== undefined) {
      return Promise.reject(new Error('this stdio transport was started already'));
    }
    const { command, args = [], env, cwd, forwardStderr } = this.#command;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        ...(cwd === undefined ? {} : { cwd }),
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.#process = child;
      child.once('error', (error) => {
        // Only a process that never started reports here first; later errors go to `onerror`.
        if (child.pid === undefined) {
          this.#spawnError = error;
          reject(error);
        } else {
          this.onerror?.(error);
        }
      });
      child.once('spawn', () => resolve());
      // `close` comes after stdout and stderr ended, so the stderr tail is complete by then.
      child.once('close', (code, signal) => {
        this.#exit = { code, signal };
        this.#process = undefined;
        this.onclose?.();
      });
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => {
        this.#readBuffer.append(chunk);
        this.#readMessages();
      });
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stderr.on('data', (chunk: Buffer) => {
        if (forwardStderr) process.stderr.write(chunk);
        this.#keepStderr(chunk.toString('utf8'));
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the process: closes its stdin, then SIGTERM, then SIGKILL, waiting up to 2 s at each step. */
  async close(): Promise<void> {
    const child = this.#process;
    if (child === undefined) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const closedWithin = (ms: number) =>
      Promise.race([
        closed.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
      ]);
    child.stdin?.end();
    if (await closedWithin(CLOSE_STEP_MS)) return;
    child.kill('SIGTERM');
    if (await closedWithin(CLOSE_STEP_MS)) return;
    child.kill('SIGKILL');
    await closed;
  }

  #readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  #keepStderr(text: string): void {
    const lines = (this.#partialStderrLine + text).split(/\r?\n/);
    this.#partialStderrLine = (lines.pop() ?? '').slice(-4 * STDERR_LINE_CHARS);
    for (const line of lines) {
      if (line.trim() === '' || STACK_FRAME.test(line)) continue;
      this.#stderrLines.push(line.trimEnd().slice(0, STDERR_LINE_CHARS));
      if (this.#stderrLines.length > STDERR_TAIL_LINES) this.#stderrLines.shift();
    }
  }
}
