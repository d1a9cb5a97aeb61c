import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import { defineTool } from '../../../src/tools';
import { createWorker } from '../../../src/worker/create-worker';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { ensurePythonTemporalio } from '../../harness/python-temporalio';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { scratchDirectory } from '../../helpers/scratch-directory';
import { testContentStore } from '../../helpers/session-worker';
import '../../harness/provided-context';

const repoRoot = path.resolve(__dirname, '../../..');
const floodCalls = 500;

/** A knowledge-base search that runs until it is interrupted (its interruptBehavior is cancel). */
const searchKb = defineTool({
  name: 'search_kb',
  description: 'Searches the knowledge base.',
  inputSchema: z.object({ query: z.string() }),
  concurrency: 'READ_ONLY',
  interruptBehavior: 'cancel',
  execute: async (_input, context) => {
    const { signal } = context;
    while (!signal.aborted) {
      context.heartbeat();
      await sleep(100);
    }
    throw signal.reason;
  },
});

/** A refund: destructive, so it waits for a human's approval. */
const issueRefund = defineTool({
  name: 'issue_refund',
  description: 'Refunds an order.',
  inputSchema: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => Promise.resolve({ refunded: order_id }),
});

/** A notification the flood session's rules allow once a run. */
const notify = defineTool({
  name: 'notify',
  description: 'Notifies a customer.',
  inputSchema: z.object({ n: z.number() }),
  concurrency: 'READ_ONLY',
  execute: () => Promise.resolve({ sent: true }),
});

/** The model of docs/wire.md's session: a search, then (after the interrupt) a refund, then answers. */
const desk = createScriptedModel([
  toolCallResponse('search_kb', { query: 'refunds' }),
  toolCallResponse('issue_refund', { order_id: 'ORD-1' }),
  textResponse('Refunded ORD-1.'),
  textResponse("You're welcome."),
]);

/** One response with 500 calls, of which the rules refuse all but the first: a transcript of more than 1,000 entries, well over 256 KiB. */
const flood = createScriptedModel(
  [
    parallelToolCallsResponse(Array.from({ length: floodCalls }, (_, n) => ({ name: 'notify', args: { n } }))),
    textResponse('Done.'),
  ],
  { recordRequests: false },
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProcess(file: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: repoRoot, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr });
        reject(new Error(`${file} ${args.join(' ')}: ${error.message}\n${stderr}`));
      },
    );
  });
}

describe('sessions driven by third-party clients: the temporal CLI and Python temporalio', () => {
  let connections: HarnessConnections;
  let toolrail: ToolrailClient;
  let taskQueue: string;
  let stopWorker: () => void;
  let workerDone: Promise<void>;
  let python: string;
  let floodSession: string;
  let env: NodeJS.ProcessEnv;
  const temporal = inject('temporalCliPath');

  beforeAll(async () => {
    python = await ensurePythonTemporalio((line) => process.stderr.write(`${line}\n`));
    connections = await connectToHarness();
    taskQueue = uniqueName('other-clients');
    const worker = await createWorker({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      tools: [searchKb, issueRefund, notify],
      scriptedModels: { desk, flood },
      contentStore: testContentStore(),
    });
    let stop!: () => void;
    workerDone = worker.runUntil(new Promise<void>((resolve) => (stop = resolve)));
    stopWorker = stop;
    toolrail = new ToolrailClient({ client: connections.client, taskQueue });
    env = {
      ...process.env,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      TOOLRAIL_TASK_QUEUE: taskQueue,
    };
    const session = await toolrail.startSession({
      sessionId: uniqueName('flood'),
      rules: compileRules({ toolrail: 1, rules: [{ kind: 'max_count', tool: 'notify', limit: 1, scope: 'run' }] }),
      model: { provider: 'scripted', model: 'flood' },
      tools: ['notify', 'issue_refund'],
      firstMessage: 'Notify everyone',
      // Left open (a worker answers an open session's queries from its cache, a closed one's by replaying it).
      limits: { continueAsNewAtHistoryBytes: 50_000_000 },
    });
    await pollUntil(
      () => session.status(),
      (status) => status.status === 'idle' && status.counters.runs === 1,
      { timeoutMs: 120_000 },
    );
    floodSession = session.sessionId;
  });

  afterAll(async () => {
    if (floodSession) await toolrail.getSession(floodSession).end();
    stopWorker?.();
    await workerDone;
    await connections?.close();
  });

  it('the temporal CLI runs docs/wire.md: start, interrupt, approve, signal, query, result', async () => {
    const sessionId = uniqueName('cli-session');
    const lines = exampleLines();
    const directory = scratchDirectory('toolrail-cli-example-');
    let ruleStateQueries = 0;
    for (const line of lines) {
      const command = line
        .replaceAll('support-1', sessionId)
        .replace('--task-queue toolrail', `--task-queue ${taskQueue}`);
      if (command.startsWith('npx toolrail input')) {
        const [args, target] = command.replace('npx toolrail ', '').split(' > ');
        const run = await runProcess(process.execPath, ['bin/toolrail.cjs', ...shellWords(args ?? '')], env);
        expect(run.code, run.stderr).toBe(0);
        writeFileSync(path.join(directory, target ?? 'input.json'), run.stdout);
        continue;
      }
      const args = shellWords(command.replace(/^temporal /, '')).map((arg) =>
        arg === 'input.json' ? path.join(directory, 'input.json') : arg,
      );
      const isQuery = args[1] === 'query';
      const run = async (): Promise<Run> => runProcess(temporal, isQuery ? [...args, '--output', 'json'] : args, env);
      if (!isQuery) {
        const done = await run();
        expect(done.code, `${command}\n${done.stderr}`).toBe(0);
        if (args[1] === 'result') expect(done.stdout).toMatch(/completed/);
        continue;
      }
      const type = args[args.indexOf('--type') + 1];
      const nth = type === 'ruleState' ? ++ruleStateQueries : 0;
      // A query line is asked again until the session got where the docs say it is.
      const answer = await pollProcess(run, (value) => {
        const result = queryResult(value);
        if (type === 'ruleState' && nth === 1) return (result.runningCalls?.length ?? 0) > 0;
        if (type === 'ruleState') return (result.pendingApprovals?.length ?? 0) > 0;
        if (type === 'status') return result.status === 'idle' && result.counters.runs === 2;
        return result.entries?.filter((entry) => entry.kind === 'run-end').length === 3;
      });
      const result = queryResult(answer);
      if (type === 'ruleState' && nth === 1) expect(result.runningCalls[0]?.toolName).toBe('search_kb');
      if (type === 'ruleState' && nth === 2) expect(result.pendingApprovals[0]?.callId).toBe('call_1_0');
      if (type === 'transcript')
        expect(result.entries.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['approval']));
    }
    const status = await toolrail.getSession(sessionId).status();
    expect(status).toMatchObject({ status: 'completed', counters: { runs: 3 } });
    const transcript = await toolrail.getSession(sessionId).transcript();
    expect(
      transcript.filter((entry) => entry.kind === 'run-end').map((entry) => entry.kind === 'run-end' && entry.reason),
    ).toEqual(['interrupted', 'answered', 'answered']);
  });

  it('the temporal CLI reads a 1,000-entry transcript in full, page by page, never an External Storage reference', async () => {
    const entries: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const input = JSON.stringify(cursor === undefined ? {} : { cursor });
      const run = await runProcess(
        temporal,
        [
          'workflow',
          'query',
          '--workflow-id',
          floodSession,
          '--type',
          'transcript',
          '--input',
          input,
          '--output',
          'json',
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/ExternalStorageReference|driverName|claimData/);
      const page = queryResult(run.stdout) as unknown as { entries: unknown[]; next: string; more: boolean };
      entries.push(...page.entries);
      pages += 1;
      if (!page.more) break;
      cursor = page.next;
    }
    expect(entries.length).toBe(2 * floodCalls + 4);
    expect(pages).toBeGreaterThan(2);
    const all = await toolrail.getSession(floodSession).transcript();
    // The CLI prints empty lists as null: compare what each entry is.
    const outline = (list: unknown[]): unknown[] =>
      list.map((entry) => {
        const { kind, turn, callId } = entry as { kind: string; turn: number; callId?: string };
        return [kind, turn, callId ?? null];
      });
    expect(outline(entries)).toEqual(outline(all));
    expect(Buffer.byteLength(JSON.stringify(all))).toBeGreaterThan(256 * 1024);
  });

  it('Python temporalio runs the example: start, interrupt, approve, signal, query, result', async () => {
    const directory = scratchDirectory('toolrail-python-example-');
    const inputFile = path.join(directory, 'input.json');
    const input = await runProcess(
      process.execPath,
      [
        'bin/toolrail.cjs',
        'input',
        '--rules',
        'examples/other-clients/rules.yaml',
        '--model',
        'scripted:desk',
        '--message',
        'Search the knowledge base for refunds',
      ],
      env,
    );
    expect(input.code, input.stderr).toBe(0);
    writeFileSync(inputFile, input.stdout);
    // The JSON Schema the package ships accepts what `toolrail input` printed, and refuses a misspelt key.
    const validate = await runProcess(
      python,
      [
        '-c',
        'import json, sys, jsonschema\n' +
          'schema = json.load(open(sys.argv[1])); value = json.load(open(sys.argv[2]))\n' +
          'jsonschema.validate(value, schema)\n' +
          'value["firstMesage"] = value.pop("firstMessage")\n' +
          'print(len(list(jsonschema.Draft202012Validator(schema).iter_errors(value))))',
        'schema/session-input.schema.json',
        inputFile,
      ],
      env,
    );
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout.trim()).toBe('1');

    const sessionId = uniqueName('python-session');
    const flow = await runProcess(
      python,
      ['examples/other-clients/drive_session.py', 'flow', inputFile, sessionId],
      env,
    );
    expect(flow.code, flow.stderr).toBe(0);
    const steps = flow.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps).toEqual([
      { step: 'started', sessionId },
      { step: 'running', tools: ['search_kb'] },
      { step: 'approval', tool: 'issue_refund', callId: 'call_1_0', input: { order_id: 'ORD-1' } },
      { step: 'approved', decision: 'approved' },
      { step: 'between runs', phase: 'between-runs', visible: ['issue_refund', 'notify', 'search_kb'] },
      {
        step: 'transcript',
        kinds: expect.arrayContaining(['user', 'model', 'verdict', 'approval', 'tool', 'run-end']) as unknown,
      },
      { step: 'result', status: 'completed', lastRunEnd: 'answered', runs: 3 },
    ]);
    const transcript = await toolrail.getSession(sessionId).transcript();
    expect(
      transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.kind === 'user' && entry.text),
    ).toEqual(['Search the knowledge base for refunds', 'Refund order ORD-1 instead', 'Thanks!']);
  });

  it('Python temporalio reads a 1,000-entry transcript in full', async () => {
    const run = await runProcess(python, ['examples/other-clients/drive_session.py', 'transcript', floodSession], env);
    expect(run.code, run.stderr).toBe(0);
    const all = await toolrail.getSession(floodSession).transcript();
    expect(JSON.parse(run.stdout)).toEqual({
      step: 'transcript',
      entries: 2 * floodCalls + 4,
      bytes: expect.any(Number) as unknown,
      last: 'run-end',
    });
    expect(all).toHaveLength(2 * floodCalls + 4);
  });

  it('Python temporalio sees a refused start input as a non-retryable InvalidSessionInput failure', async () => {
    const run = await runProcess(
      python,
      ['examples/other-clients/drive_session.py', 'bad-input', uniqueName('py-bad')],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      step: 'refused',
      type: 'InvalidSessionInput',
      nonRetryable: true,
      message: expect.stringMatching(
        /^the session input was refused \(1 problem\):\n- \(input\): no start input \(none, or None in Python\)/,
      ) as unknown,
    });
  });
});

/** The `temporal` CLI example of docs/wire.md, one command per line. */
function exampleLines(): string[] {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'wire.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## With the `temporal` CLI'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** Splits a shell line into words: single-quoted and double-quoted parts stay whole. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

/** What the example's query lines answer, as far as the test reads them. */
interface QueryAnswer {
  runningCalls: { toolName: string }[];
  pendingApprovals: { callId: string }[];
  status: string;
  counters: { runs: number };
  entries: { kind: string }[];
}

/** The answer a `temporal workflow query --output json` printed (it prints empty lists as null). */
function queryResult(stdout: string): QueryAnswer {
  const parsed = JSON.parse(stdout) as { queryResult?: unknown[] };
  return (Array.isArray(parsed.queryResult) ? parsed.queryResult[0] : parsed) as QueryAnswer;
}

async function pollProcess(run: () => Promise<Run>, done: (stdout: string) => boolean): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await run();
    if (result.code === 0 && done(result.stdout)) return result.stdout;
    if (Date.now() > deadline) throw new Error(`not reached: ${result.stdout}\n${result.stderr}`);
    await sleep(200);
  }
}
