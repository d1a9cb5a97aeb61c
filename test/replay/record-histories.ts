/**
 * Records the histories that `replay-histories.test.ts` replays in every test run: one session per
 * representative path of the session workflow (a ticket flow with a refused call, parallel batches,
 * an interrupt that cancels a running tool, an approval, continue-as-new, and tools that run as local
 * activities), each run on a fresh dev
 * server with the scripted model, written to `test/replay/histories/<name>.json` in Temporal's JSON
 * history form.
 *
 *   npx tsx test/replay/record-histories.ts
 *   npx tsx test/replay/record-histories.ts ticket-flow store-outage   # those scenarios only
 *   npx tsx test/replay/record-histories.ts --only ticket-flow --suffix catalog-on-change
 *
 * Naming scenarios (or `--only a,b`, or TOOLRAIL_RECORD=a,b) records those alone. `--suffix S`
 * writes `<file>-S.json` instead, next to the recordings of the released version, which must still
 * replay: a change made with `sessionPatched` (`workflows/session-patched.ts`) gets recordings of its
 * own this way. Record again only to add a scenario, or for a change that is meant to break replay
 * (and then say so: sessions in flight on the old code would fail the same way). A change that
 * makes the committed histories fail to replay is otherwise a bug in the change, or needs a patch.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createSupportDeskTools } from '../../examples/support-desk/support-desk-tools';
import { ToolrailClient } from '../../src/client/toolrail-client';
import type { SessionHandle } from '../../src/client/session-handle';
import { startDevServer } from '../../src/devserver/start-dev-server';
import type { LanguageModelV4 } from '../../src/models';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../src/models';
import type { AnyTool } from '../../src/tools/tool';
import { createWorker } from '../../src/worker/create-worker';
import type { ContentStore } from '../../src/store/content-store';
import { DirectoryContentStore } from '../../src/store/directory-content-store';
import { defineTool } from '../../src/tools';
import { z } from 'zod';
import { FlakyContentStore } from '../helpers/flaky-content-store';
import {
  compileLongSessionRules,
  createLongSessionTools,
  longSessionMessage,
  longSessionScript,
} from '../fixtures/long-session-scenario';
import { createLocalActivityTools, localActivityScript } from '../fixtures/local-activity-tools';
import { compileRules } from '../helpers/compile-rules';
import { fetchRunChain } from '../helpers/run-chain';
import type { JsonHistory } from '../helpers/run-chain';
import { machineNeutralHistory } from './machine-neutral-history';

const historiesDirectory = path.resolve(__dirname, 'histories');
const supportDeskRulesFile = path.resolve(__dirname, '../../examples/support-desk/support-desk-rules.yaml');

/** One recorded scenario: the session it runs, and which of its runs become files. */
interface Scenario {
  name: string;
  tools: () => AnyTool[];
  model: () => LanguageModelV4;
  start: (client: ToolrailClient, sessionId: string) => Promise<SessionHandle>;
  /** Drives the running session (interrupts, approvals) until it ends. */
  drive?: (session: SessionHandle) => Promise<void>;
  /** File name per run of the chain; by default the only run is `<name>.json`. */
  files?: (runCount: number) => Map<number, string>;
  /** The workers' content store; by default the worker's own default. */
  contentStore?: () => ContentStore;
}

/**
 * A session whose content store fails twice: down (reads and writes) when its first message
 * arrives, and for writes right after the model proposed a call of a tool that does not exist (the
 * workflow stores its error result itself). Each time the session waits (`waiting_for_store`) until
 * the store is back. Its run-once tool runs in between.
 */
function storeOutageScenario(): Scenario {
  let store: FlakyContentStore | undefined;
  let directory: string | undefined;
  let refunds = 0;
  const refund = defineTool({
    name: 'issue_refund',
    description: 'Refunds an order (runs at most once).',
    inputSchema: z.object({ order_id: z.string() }),
    requiresPermission: false,
    execute: ({ order_id }) => {
      refunds += 1;
      return Promise.resolve(`refunded ${order_id}`);
    },
  });
  const waiting = (session: SessionHandle) => async () => (await session.status()).status === 'waiting_for_store';
  return {
    name: 'store-outage',
    tools: () => [refund],
    contentStore: () => {
      directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-replay-store-'));
      store = new FlakyContentStore(new DirectoryContentStore(directory));
      return store;
    },
    model: () =>
      createScriptedModel([
        toolCallResponse('issue_refund', { order_id: 'ORD-1' }),
        () => {
          // The model's response is stored (one write), then the store fails under the workflow's own write.
          store?.fail('no space left on device (ENOSPC)', { afterWrites: 1 });
          return toolCallResponse('send_receipt', { order_id: 'ORD-1' });
        },
        textResponse('Refunded.'),
      ]),
    start: (client, sessionId) => {
      store?.fail('connect ECONNREFUSED 127.0.0.1:5432', { reads: true });
      return client.startSession({
        sessionId,
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'store-outage' },
        firstMessage: 'Refund ORD-1.',
        limits: { closeWhenIdle: true, storeRetryIntervalMs: 200 },
      });
    },
    drive: async (session) => {
      await waitFor(waiting(session), 'the session to wait for its store while it takes its first message');
      store?.heal();
      const afterRefund = waiting(session);
      await waitFor(
        async () => refunds === 1 && (await afterRefund()),
        'the result of send_receipt to wait for the store',
      );
      store?.heal();
      await session.result();
      if (directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

const supportDeskRules = () =>
  compileRules(readFileSync(supportDeskRulesFile, 'utf8'), { file: 'support-desk-rules.yaml' });

const scenarios: Scenario[] = [
  {
    name: 'ticket-flow',
    tools: () => createSupportDeskTools(),
    model: () =>
      createScriptedModel([
        toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
        toolCallResponse('create_ticket', { customer: 'ada@example.com', subject: 'Broken mug' }),
        toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
        toolCallResponse('close_ticket', { ticket_id: 'T-0001', note: 'Assigned to Sam.' }),
      ]),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: supportDeskRules(),
        model: { provider: 'scripted', model: 'ticket-flow' },
        firstMessage: 'Open a ticket for ada@example.com, assign it to Sam and close it.',
        limits: { closeWhenIdle: true },
      }),
  },
  {
    name: 'parallel-batch',
    tools: () => createSupportDeskTools({ searchDelayMs: 300 }),
    model: () =>
      createScriptedModel([
        parallelToolCallsResponse([
          { name: 'lookup_customer', args: { email: 'ada@example.com' } },
          { name: 'lookup_customer', args: { email: 'grace@example.com' } },
        ]),
        parallelToolCallsResponse([
          { name: 'check_eligibility', args: { order_id: 'ORD-1001' } },
          { name: 'check_eligibility', args: { order_id: 'ORD-2001' } },
          { name: 'search_knowledge_base', args: { query: 'refund window' } },
        ]),
        textResponse('Both orders can be refunded within 30 days.'),
      ]),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: supportDeskRules(),
        model: { provider: 'scripted', model: 'parallel-batch' },
        firstMessage: 'Can Ada and Grace get refunds?',
        limits: { closeWhenIdle: true },
      }),
  },
  {
    name: 'interrupt',
    tools: () => createSupportDeskTools({ searchDelayMs: 30_000 }),
    model: () =>
      createScriptedModel([
        toolCallResponse('search_knowledge_base', { query: 'refund policy' }),
        textResponse('Orders can be refunded within 30 days.'),
      ]),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: supportDeskRules(),
        model: { provider: 'scripted', model: 'interrupt' },
        firstMessage: 'Search the help centre for the refund policy.',
        limits: { closeWhenIdle: true },
      }),
    drive: async (session) => {
      await waitFor(async () => (await session.ruleState()).runningCalls.length > 0, 'the search to run');
      await session.interrupt('Never mind the search; just tell me the refund window.');
    },
  },
  {
    name: 'approval',
    tools: () => createSupportDeskTools(),
    model: () =>
      createScriptedModel([
        toolCallResponse('lookup_customer', { email: 'ada@example.com' }),
        toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }),
        toolCallResponse('issue_refund', { order_id: 'ORD-1001', amount: 42 }),
        textResponse('Refunded ORD-1001.'),
      ]),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: supportDeskRules(),
        model: { provider: 'scripted', model: 'approval' },
        firstMessage: 'Refund order ORD-1001 for ada@example.com.',
        limits: { closeWhenIdle: true },
      }),
    drive: async (session) => {
      let callId: string | undefined;
      await waitFor(async () => {
        callId = (await session.ruleState()).pendingApprovals[0]?.callId;
        return callId !== undefined;
      }, 'the refund to wait for approval');
      if (callId !== undefined) await session.approve(callId, 'checked with the customer');
    },
  },
  {
    // As another client drives a session: a checked start input (its patch marker), a name in tools the
    // worker lacks, an unknown signal and update, an interrupt with { text }, an approval.
    name: 'other-clients',
    tools: () => createSupportDeskTools({ searchDelayMs: 30_000 }),
    model: () =>
      createScriptedModel([
        toolCallResponse('search_knowledge_base', { query: 'refund policy' }),
        toolCallResponse('lookup_customer', { email: 'ada@example.com' }),
        toolCallResponse('check_eligibility', { order_id: 'ORD-1001' }),
        toolCallResponse('issue_refund', { order_id: 'ORD-1001', amount: 42 }),
        textResponse('Refunded ORD-1001.'),
      ]),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: supportDeskRules(),
        model: { provider: 'scripted', model: 'other-clients' },
        tools: ['search_knowledge_base', 'lookup_customer', 'check_eligibility', 'issue_refund', 'lookup_custmer'],
        firstMessage: 'Search the help centre for the refund policy.',
        limits: { closeWhenIdle: true },
      }),
    drive: async (session) => {
      await session.workflow.signal('user_message', { text: 'hello?' });
      await session.workflow.executeUpdate('approve_tool_call', { args: [{}] }).catch(() => undefined);
      await waitFor(async () => (await session.ruleState()).runningCalls.length > 0, 'the search to run');
      await session.workflow.signal('interrupt', { text: 'Refund order ORD-1001 for ada@example.com instead.' });
      let callId: string | undefined;
      await waitFor(async () => {
        callId = (await session.ruleState()).pendingApprovals[0]?.callId;
        return callId !== undefined;
      }, 'the refund to wait for approval');
      if (callId !== undefined) await session.approve(callId);
    },
  },
  {
    name: 'local-activity-tools',
    tools: () => createLocalActivityTools(),
    model: () => createScriptedModel(localActivityScript()),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'local-activity-tools' },
        firstMessage: 'Read a and b, then write a.',
        limits: { closeWhenIdle: true },
      }),
  },
  {
    name: 'continue-as-new',
    tools: () => createLongSessionTools(),
    model: () => createScriptedModel(longSessionScript()),
    start: (client, sessionId) =>
      client.startSession({
        sessionId,
        rules: compileLongSessionRules(),
        model: { provider: 'scripted', model: 'continue-as-new' },
        firstMessage: longSessionMessage,
        limits: { closeWhenIdle: true, continueAsNewAfterTurns: 4 },
      }),
    // The first run (fresh start, ends continuing as new), the second (starts from carried state in
    // the middle of a run, continues as new again) and the last (starts carried, completes).
    files: (runCount) =>
      new Map([
        [0, 'continue-as-new-first-run.json'],
        [1, 'continue-as-new-second-run.json'],
        [runCount - 1, 'continue-as-new-last-run.json'],
      ]),
  },
  storeOutageScenario(),
];

async function record(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await startDevServer({ ui: false, onProgress: (line) => process.stderr.write(`${line}\n`) });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  try {
    const client = new Client({ connection, namespace: server.namespace });
    mkdirSync(historiesDirectory, { recursive: true });
    // `--only a,b`, `record-histories.ts a b` or TOOLRAIL_RECORD=a,b records only those scenarios (adding one leaves the others' histories as they are).
    const only = optionValue('--only')?.split(',') ?? [
      ...scenarioNames(),
      ...(process.env.TOOLRAIL_RECORD?.split(',') ?? []),
    ];
    const suffix = optionValue('--suffix');
    for (const scenario of scenarios.filter(({ name }) => only.length === 0 || only.includes(name))) {
      const taskQueue = `replay-${scenario.name}`;
      const worker = await createWorker({
        connection: nativeConnection,
        namespace: server.namespace,
        taskQueue,
        tools: scenario.tools(),
        scriptedModels: { [scenario.name]: scenario.model() },
        ...(scenario.contentStore ? { contentStore: scenario.contentStore() } : {}),
      });
      const histories = await worker.runUntil(async () => {
        const session = await scenario.start(new ToolrailClient({ client, taskQueue }), `replay-${scenario.name}`);
        await scenario.drive?.(session);
        await session.result();
        return (await fetchRunChain(client, session.sessionId)).map((run) => run.history);
      });
      const files = scenario.files?.(histories.length) ?? new Map([[0, `${scenario.name}.json`]]);
      for (const [index, file] of files) {
        const history = histories[index];
        if (history === undefined)
          throw new Error(`${scenario.name}: no run ${index + 1} (the chain has ${histories.length})`);
        writeHistory(suffix === undefined ? file : file.replace(/\.json$/, `-${suffix}.json`), history);
      }
    }
  } finally {
    await nativeConnection.close();
    await connection.close();
    await server.stop();
  }
}

/** The value after `name` on the command line, if given. */
/** Scenario names given on the command line without `--only` (every argument that is no option nor its value). */
function scenarioNames(): string[] {
  const args = process.argv.slice(2);
  return args.filter((arg, index) => !arg.startsWith('--') && !(args[index - 1]?.startsWith('--') ?? false));
}

function optionValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
}

function writeHistory(file: string, history: JsonHistory): void {
  writeFileSync(path.join(historiesDirectory, file), `${JSON.stringify(machineNeutralHistory(history), null, 2)}\n`);
  process.stdout.write(`wrote test/replay/histories/${file} (${history.events.length} events)\n`);
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(50);
  }
}

record().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
