/**
 * The chat page for the support desk: `npx tsx examples/live-feed/serve.ts`, next to a server and a
 * worker (`npm run dev-server`, then `npx toolrail worker --module
 * examples/support-desk/worker-module.ts`), then open http://localhost:3000/ and send a message: it
 * starts a support-desk session (scripted model) and shows it live in `useChat`.
 *
 * TEMPORAL_ADDRESS (default localhost:7233), TOOLRAIL_TASK_QUEUE (default toolrail), PORT (default
 * 3000) and TOOLRAIL_CONTENT_STORE (the workers' content store; default the directory store under
 * the working directory, as the worker's) say where; TOOLRAIL_LIVE names the workers' live channel
 * (`local`, `postgres://…`; the worker gets the same, e.g. `--live local`): the page then gets the
 * model's text as it is written, and each event without a query.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { formatDiagnostic, loadRuleSet, openContentStore, openLiveChannel, ToolrailClient } from 'toolrail/client';
import { createChatServer } from './chat-server';

async function serve(): Promise<void> {
  const loaded = await loadRuleSet({ paths: [path.join(__dirname, '..', 'support-desk', 'support-desk-rules.yaml')] });
  if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233' });
  const live = openLiveChannel();
  const toolrail = new ToolrailClient({
    client: new Client({ connection }),
    taskQueue: process.env.TOOLRAIL_TASK_QUEUE ?? 'toolrail',
    contentStore: openContentStore(),
    ...(live ? { live } : {}),
  });
  const server = await createChatServer({
    toolrail,
    start: () => ({
      rules: loaded.rules,
      model: { provider: 'scripted', model: 'support-desk' },
      systemPrompt: 'You are a support agent.',
    }),
  });
  const port = Number(process.env.PORT ?? 3000);
  server.listen(port, () => process.stdout.write(`the chat page: http://localhost:${port}/\n`));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  server.closeAllConnections();
  server.close();
  await live?.close();
  await connection.close();
}

serve().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
