/**
 * `npm run demo`: the embedded default. Starts the Temporal dev server with its Web UI, a worker
 * with the support-desk tools, and one agent session whose rules use several rule families; prints
 * each turn as it happens, interrupts a slow tool, approves a refund, and prints where to look in
 * the UI. Ctrl-C stops everything; `--once` exits 0 as soon as the session is done.
 *
 * The model is scripted, or a real one when OPENAI_API_KEY or ANTHROPIC_API_KEY is set
 * (TOOLRAIL_DEMO_MODEL picks the model name), called through the official AI SDK providers.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createWorker, formatDiagnostic, loadRuleSet, ToolrailClient } from 'toolrail';
import type { BuiltInModelSettings } from 'toolrail';
import { isPortFree, startDevServer } from 'toolrail/testing';
import { followDemoSession } from './support-desk/follow-demo-session';
import { supportDeskScript } from './support-desk/support-desk-script';
import { createSupportDeskTools } from './support-desk/support-desk-tools';

const once = process.argv.includes('--once');
const log = (line: string): void => void process.stdout.write(`${line}\n`);

/**
 * The demo's model: a real one through the official AI SDK providers when a key is set (OpenAI's
 * Responses API, or Anthropic; streamed, so the feed shows its text as it is written), else the
 * scripted support agent. `TOOLRAIL_DEMO_MODEL` names another model of the same provider.
 */
function chooseModel(): BuiltInModelSettings {
  const named = process.env.TOOLRAIL_DEMO_MODEL;
  if (process.env.OPENAI_API_KEY) return { provider: 'openai-responses', model: named ?? 'gpt-5.4-mini', stream: true };
  if (process.env.ANTHROPIC_API_KEY)
    return { provider: 'anthropic', model: named ?? 'claude-sonnet-5-5', stream: true };
  return { provider: 'scripted', model: 'support-desk' };
}

async function runDemo(stopRequested: Promise<unknown>): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  log('toolrail demo: starting the Temporal dev server (the first run builds the Temporal CLI once)…');
  // The usual ports when they are free, so `toolrail` commands and the UI link work with their defaults.
  const usual = (await isPortFree(7233)) && (await isPortFree(8233));
  const server = await startDevServer({
    ui: true,
    ...(usual ? { port: 7233, uiPort: 8233 } : {}),
    onProgress: (line) => log(`  ${line}`),
  });
  const cleanups: (() => Promise<void>)[] = [() => server.stop()];
  try {
    log(`Temporal dev server: ${server.address}`);
    log(`Temporal Web UI:     ${server.uiAddress ?? '(headless)'}`);
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanups.unshift(() => nativeConnection.close());
    const connection = await Connection.connect({ address: server.address });
    cleanups.unshift(() => connection.close());
    const taskQueue = 'toolrail-demo';
    const worker = await createWorker({
      connection: nativeConnection,
      taskQueue,
      tools: createSupportDeskTools({ searchDelayMs: 5_000 }),
      scriptedModels: { 'support-desk': supportDeskScript() },
    });
    const workerRun = worker.run();
    cleanups.unshift(async () => {
      worker.shutdown();
      await workerRun;
    });

    const rulesFile = path.join(__dirname, 'support-desk', 'support-desk-rules.yaml');
    const loaded = await loadRuleSet({ paths: [rulesFile] });
    if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));
    const model = chooseModel();
    const toolrail = new ToolrailClient({ client: new Client({ connection }), taskQueue });
    const session = await toolrail.startSession({
      sessionId: `support-desk-${new Date().toISOString().replace(/[:.]/g, '-')}`,
      rules: loaded.rules,
      model,
      systemPrompt:
        'You are a support agent. Use the tools to help the customer; tool results tell you when a rule refused a call and what to call first.',
      firstMessage: 'ada@example.com says order ORD-1001 arrived broken. Please refund it and keep a ticket of it.',
    });
    const sessionUrl = `${server.uiAddress ?? ''}/namespaces/default/workflows/${session.sessionId}`;
    log(`Session ${session.sessionId} (model ${model.provider}:${model.model})`);
    log(`  ${sessionUrl}`);
    log('');

    const finished = await Promise.race([followDemoSession(session, log), stopRequested.then(() => false as const)]);
    if (finished === false) return;
    log('');
    log('Where to look in the Temporal Web UI:');
    log(`  ${sessionUrl}`);
    log('  - History: each model call and tool call is an activity; parallel calls share one workflow task.');
    log('  - Queries tab: run "ruleState" (visible tools, hidden tools with reasons, counts), "transcript", "status".');
    log('  - The summary at the top ("current details") shows the rule state in Markdown.');
    log(`  - Workflows list: filter with ToolrailStatus="idle" or ToolrailBlockedCalls > 0.`);
    log(
      `From a terminal: npx toolrail state ${session.sessionId} --address ${server.address} --ui-url ${server.uiAddress ?? ''}`,
    );
    log(`  and its live feed, from the start: npx toolrail follow ${session.sessionId} --address ${server.address}`);
    if (once) {
      await session.end();
      await session.result();
      log('Session completed (--once): stopping.');
      return;
    }
    log('Press Ctrl-C to stop the server and the worker.');
    await stopRequested;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

/** Resolves on the first SIGINT (Ctrl-C) or SIGTERM. */
const stop = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
runDemo(stop).then(
  () => {
    log('Stopped.');
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
