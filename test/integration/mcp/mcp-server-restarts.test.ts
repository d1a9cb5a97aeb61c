import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionHandle } from '../../../src/client/session-handle';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import type { McpServerConnection } from '../../../src/tools/mcp/mcp-server-connection';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { toolResultOf } from '../../helpers/transcript-entries';
import {
  everythingOverStdio,
  filesystemOverStdio,
  freePort,
  startEverythingOverHttp,
  type HttpReferenceServer,
} from './reference-servers';

/** Short backoff: the tests wait for reconnects by polling the connection's status. */
const reconnect = { initialDelayMs: 100, maxDelayMs: 1_000 };
const noRules = compileRules({ toolrail: 1, rules: [] });

/** Waits until the session's run `runs` has ended. */
function runEnded(session: SessionHandle, runs: number) {
  return pollUntil(
    () => session.status(),
    (status) => status.counters.runs === runs && status.status === 'idle',
  );
}

/** The attempts the `executeTool` activity of a call was started with. */
async function attemptsOf(session: SessionHandle, callId: string): Promise<number[]> {
  const history = await readSessionHistory(session);
  const activity = history.toolActivity(callId);
  return history
    .ofType('ACTIVITY_TASK_STARTED')
    .filter((event) => Number(event.attributes['scheduledEventId']) === activity.scheduledEventId)
    .map((event) => Number(event.attributes['attempt']));
}

describe('an MCP server that dies mid-session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('marks the tools of server-filesystem unavailable with its exit status and stderr while it cannot restart, then brings them back', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolrail-mcp-fs-'));
    const root = path.join(directory, 'root');
    await mkdir(root);
    await writeFile(path.join(root, 'notes.txt'), 'hello');
    const registry = new ToolRegistry();
    const files = await connectMcpServer({ name: 'files', transport: filesystemOverStdio(root), registry, reconnect });
    const list = (id: string) => toolCallResponse('mcp__files__list_directory', { path: root }, { id });
    const model = createScriptedModel([
      list('first'),
      textResponse('Listed.'),
      list('while-down'),
      textResponse('The file server is down.'),
      list('after'),
      textResponse('Listed again.'),
    ]);
    try {
      await withSessionWorker(
        { connections, tools: registry, scriptedModels: { files: model } },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('mcp-fs-restart'),
            rules: noRules,
            model: { provider: 'scripted', model: 'files' },
            firstMessage: 'List the directory.',
          });
          await runEnded(session, 1);
          const { pid } = files.status;

          // The server dies, and cannot come back while its root is gone: each restart exits with code 1.
          await rename(root, `${root}.away`);
          process.kill(pid ?? 0, 'SIGKILL');
          const down = await pollUntil(
            () => Promise.resolve(files.status),
            (status) => status.failedAttempts >= 1,
          );
          expect(down).toMatchObject({ state: 'reconnecting', pid: null });
          expect(down.reason).toContain('exited with code 1');
          expect(down.reason).toContain('Error: None of the specified directories are accessible');

          await session.send('List it again.');
          await runEnded(session, 2);
          const whileDown = toolResultOf(await session.transcript(), 'while-down');
          expect(whileDown).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
          expect(whileDown.content).toContain('the MCP server "files"');
          expect(whileDown.content).toContain('exited with code 1');
          expect(whileDown.content).toContain('Error: None of the specified directories are accessible');
          // Refused before it ran: no activity, so no attempt and no retry.
          expect((await readSessionHistory(session)).toolCallIds()).toEqual(['first']);
          // The model read why before it called, and the rule state says it too.
          const shown = model.requests[2]?.tools.find((tool) => tool.name === 'mcp__files__list_directory');
          expect(shown?.description).toMatch(/^\[Unavailable now: the MCP server "files" .* exited with code 1/s);
          const state = await session.ruleState();
          expect(state.unavailableTools.map((tool) => tool.toolName)).toContain('mcp__files__list_directory');
          expect(state.unavailableTools[0]?.reason).toContain(
            'Error: None of the specified directories are accessible',
          );
          // And the Temporal UI's current details list it with the reason.
          const details = await session.workflow.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
          expect(details.currentDetails).toMatch(
            /\*\*Unavailable now \(\d+ tools\)\*\*: [^\n]*`mcp__files__list_directory`[^\n]*: the MCP server "files" is not connected: it exited with code 1/,
          );

          // Its root is back: the next attempt connects, and a later turn lists the directory again.
          await rename(`${root}.away`, root);
          const back = await pollUntil(
            () => Promise.resolve(files.status),
            (status) => status.state === 'connected',
          );
          expect(back.pid).not.toBe(pid);
          await session.send('Try once more.');
          await runEnded(session, 3);
          expect(toolResultOf(await session.transcript(), 'after')).toMatchObject({ isError: false });
          expect(toolResultOf(await session.transcript(), 'after').content).toContain('notes.txt');
          expect((await session.ruleState()).unavailableTools).toEqual([]);
          const detailsAfter = await session.workflow.query<{ currentDetails?: string }>(
            '__temporal_workflow_metadata',
          );
          expect(detailsAfter.currentDetails).not.toContain('Unavailable now');
          await session.end();
          await session.result();
        },
      );
    } finally {
      await files.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('reports a server-everything killed during a call with its signal, once, and its tools work again in a later turn', async () => {
    const registry = new ToolRegistry();
    const everything = await connectMcpServer({
      name: 'everything',
      transport: everythingOverStdio(),
      registry,
      reconnect,
    });
    const model = createScriptedModel([
      toolCallResponse(
        'mcp__everything__trigger-long-running-operation',
        { duration: 300, steps: 300 },
        { id: 'long' },
      ),
      textResponse('It stopped.'),
      toolCallResponse('mcp__everything__echo', { message: 'still there?' }, { id: 'echo' }),
      textResponse('Yes.'),
    ]);
    try {
      await withSessionWorker(
        { connections, tools: registry, scriptedModels: { killed: model } },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('mcp-killed-mid-call'),
            rules: noRules,
            model: { provider: 'scripted', model: 'killed' },
            firstMessage: 'Run the long operation.',
          });
          await pollUntil(
            () => session.ruleState(),
            (state) => state.runningCalls.length === 1,
          );
          const { pid } = everything.status;
          process.kill(pid ?? 0, 'SIGKILL');
          await runEnded(session, 1);

          const lost = toolResultOf(await session.transcript(), 'long');
          expect(lost).toMatchObject({ isError: true, code: 'EXECUTION_ERROR' });
          expect(lost.content).toContain(
            'The MCP server "everything" was lost while this call ran: it was ended by SIGKILL',
          );
          expect(lost.content).not.toContain('Connection closed');
          // A read-only call, yet one attempt: the server it needs was gone.
          expect(await attemptsOf(session, 'long')).toEqual([1]);

          const back = await pollUntil(
            () => Promise.resolve(everything.status),
            (status) => status.state === 'connected',
          );
          expect(back.pid).not.toBe(pid);
          await session.send('Is it still there?');
          await runEnded(session, 2);
          expect(toolResultOf(await session.transcript(), 'echo')).toMatchObject({
            isError: false,
            content: 'Echo: still there?',
          });
          await session.end();
          await session.result();
        },
      );
    } finally {
      await everything.close();
    }
  });

  it('notices that server-everything over Streamable HTTP died during a call, names its URL and error meanwhile, and reconnects once it is back', async () => {
    const port = await freePort();
    let server: HttpReferenceServer = await startEverythingOverHttp(port);
    const registry = new ToolRegistry();
    const everything: McpServerConnection = await connectMcpServer({
      name: 'remote',
      transport: { type: 'streamable-http', url: server.url },
      registry,
      reconnect,
    });
    const echo = (id: string) => toolCallResponse('mcp__remote__echo', { message: id }, { id });
    const model = createScriptedModel([
      toolCallResponse('mcp__remote__trigger-long-running-operation', { duration: 300, steps: 300 }, { id: 'long' }),
      textResponse('It stopped.'),
      echo('while-down'),
      textResponse('The server is down.'),
      echo('after'),
      textResponse('Echoed again.'),
    ]);
    const refused = `could not be reached (connect ECONNREFUSED 127.0.0.1:${port})`;
    try {
      await withSessionWorker(
        { connections, tools: registry, scriptedModels: { remote: model } },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('mcp-http-restart'),
            rules: noRules,
            model: { provider: 'scripted', model: 'remote' },
            firstMessage: 'Run the long operation.',
          });
          await pollUntil(
            () => session.ruleState(),
            (state) => state.runningCalls.length === 1,
          );
          // The call's event stream breaks, and a ping finds nobody: the call ends with why.
          await server.kill('SIGKILL');
          await runEnded(session, 1);
          const lost = toolResultOf(await session.transcript(), 'long');
          expect(lost).toMatchObject({ isError: true, code: 'EXECUTION_ERROR' });
          // The network error depends on where the ping met the dead server (refused, or reset on a
          // kept-alive socket as it was read or written).
          expect(lost.content).toMatch(
            /The MCP server "remote" was lost while this call ran: it could not be reached \((connect ECONNREFUSED 127\.0\.0\.1:\d+|(read|write) ECONNRESET|other side closed)\)/,
          );
          expect(lost.content).not.toContain('fetch failed');
          expect(await attemptsOf(session, 'long')).toEqual([1]);

          const down = await pollUntil(
            () => Promise.resolve(everything.status),
            (status) => status.failedAttempts >= 1,
          );
          expect(down).toMatchObject({ state: 'reconnecting', reason: refused });
          await session.send('Echo something.');
          await runEnded(session, 2);
          const whileDown = toolResultOf(await session.transcript(), 'while-down');
          expect(whileDown).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
          expect(whileDown.content).toContain(
            `the MCP server "remote" (http://127.0.0.1:${port}/mcp) is not connected: it ${refused}`,
          );

          server = await startEverythingOverHttp(port);
          await pollUntil(
            () => Promise.resolve(everything.status),
            (status) => status.state === 'connected',
          );
          await session.send('And now?');
          await runEnded(session, 3);
          expect(toolResultOf(await session.transcript(), 'after')).toMatchObject({
            isError: false,
            content: 'Echo: after',
          });
          await session.end();
          await session.result();
        },
      );
    } finally {
      await everything.close();
      await server.kill();
    }
  });
});
