import { Client, Connection } from '@temporalio/client';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolrailClient } from '../src/client/toolrail-client';
import { startDevServer } from '../src/devserver/start-dev-server';
import { emptyRules } from '../bench/dispatch/measure-on-server';
import { startScaleWorker } from '../bench/scale/scale-workers';

async function main() {
  const server = await startDevServer({ ui: false });
  const connection = await Connection.connect({ address: server.address });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prof-'));
  const mode = process.env['PROF_MODE'] ?? 'cpu';
  const worker = await startScaleWorker({
    variant: (process.env['PROF_VARIANT'] as 'toolrail' | 'bare') ?? 'toolrail', address: server.address, namespace: server.namespace, taskQueue: 'prof', storeDirectory: dir, turns: [6],
    debugMode: process.env['PROF_DEBUG'] === '1',
    execArgv: mode === 'cpu' ? ['--cpu-prof', '--cpu-prof-dir=' + (process.env['PROF_DIR'] ?? '/tmp/perfprof')] : [],
  });
  try {
    const client = new Client({ connection });
    const toolrail = new ToolrailClient({ client, taskQueue: 'prof' });
    const rules = emptyRules();
    const rounds = Number(process.env['PROF_ROUNDS'] ?? 1);
    const n = Number(process.env['PROF_SESSIONS'] ?? 100);
    for (let r = 0; r < rounds; r++) {
      const t0 = Date.now();
      await Promise.all(Array.from({ length: n }, async (_, i) => {
        if (process.env['PROF_VARIANT'] === 'bare') {
          await client.workflow.execute('bareSession', { taskQueue: 'prof', workflowId: `p-${r}-${i}`, args: [{ turns: 6, byReference: false }] });
          return;
        }
        const s = await toolrail.startSession({ sessionId: `p-${r}-${i}`, rules, model: { provider: 'scripted', model: 'scale-6' }, firstMessage: 'Read.', interactive: false });
        await s.result();
      }));
      const st = await worker.stats();
      console.log('round', r, Date.now() - t0, 'ms rss', Math.round(st.rss / 1e6), 'heap', Math.round(st.heapUsed / 1e6));
      if (mode === 'heap') { await new Promise((res) => setTimeout(res, 3000)); await worker.heapSnapshot(`/tmp/perfprof/round${r}.heapsnapshot`); }
    }

  } finally {
    await worker.stop(); await connection.close(); await server.stop();
  }
}
main();
