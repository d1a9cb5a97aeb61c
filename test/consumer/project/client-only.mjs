// A plain-Node ESM app that holds only `toolrail/client` (as a web server's route would): it starts a
// session on a running worker (TEMPORAL_ADDRESS), follows it, approves its refund, waits for its end,
// and prints one JSON line: what happened, and which worker, bundler or test packages got loaded.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { loadRuleSet, formatDiagnostic, SessionStatus, ToolrailClient } from 'toolrail/client';

const loaded = await loadRuleSet({ paths: ['rules.yaml'] });
if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));

const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
try {
  const toolrail = new ToolrailClient({ client: new Client({ connection }), taskQueue: 'client-only' });
  const session = await toolrail.startSession({
    rules: loaded.rules,
    model: { provider: 'scripted', model: 'desk' },
    // A human approves the refund; the session completes when its run ends.
    interactive: true,
    limits: { closeWhenIdle: true },
    firstMessage: 'ORD-1 arrived broken: refund it.',
  });
  let pending = [];
  for (const deadline = Date.now() + 60_000; pending.length === 0; await sleep(100)) {
    if (Date.now() > deadline) throw new Error('no approval was asked for');
    pending = (await session.ruleState()).pendingApprovals;
  }
  await session.approve(pending[0].callId, 'checked the photos');
  const status = await session.result();
  const transcript = await session.transcript();

  const require = createRequire(import.meta.url);
  const forbidden = Object.keys(require.cache).filter((file) =>
    /[\\/]node_modules[\\/](@temporalio[\\/](worker|testing|core-bridge)|webpack|@swc)[\\/]/.test(file),
  );
  console.log(
    JSON.stringify({
      status: status.status,
      completed: status.status === SessionStatus.completed,
      approved: pending.map(({ toolName }) => toolName),
      lastText: transcript.filter((entry) => entry.kind === 'model').at(-1)?.text,
      forbidden,
      // The ES module and the CommonJS build are one package, not two copies.
      sameClass: require('toolrail/client').ToolrailClient === ToolrailClient,
    }),
  );
} finally {
  await connection.close();
}
