import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textResponse } from '../../src/models';
import { connectToHarness, uniqueName } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import { deployScript, deployTools, deployedAnswer, startFeedServer } from '../fixtures/live-feed-scenario';
import { ToolProbe } from '../helpers/tool-probe';
import { startBackgroundWorker } from './support/background-worker';
import type { BackgroundWorker } from './support/background-worker';
import { endSession } from './support/end-session';
import { artifactsDir, withChromium } from './support/with-chromium';

/**
 * A person watches a session live in a real headless Chromium, on the example page and its SSE route
 * (`examples/live-feed/`): they send the first message (the route starts the session), see the
 * model's text while the model is still writing and interrupt it, see the call the rules refuse
 * with their reason, approve the deploy that waits for them, and see the final answer.
 */
describe('a session live in the browser', () => {
  let connections: HarnessConnections;
  let worker: BackgroundWorker;
  let server: Awaited<ReturnType<typeof startFeedServer>>;
  const sessionId = uniqueName('browser-feed');

  beforeAll(async () => {
    connections = await connectToHarness();
    const model = deployScript([textResponse('Thinking about how to deploy this, at length…', { delayMs: 600_000 })]);
    worker = await startBackgroundWorker({
      connections,
      tools: deployTools(new ToolProbe()),
      scriptedModels: { 'browser-deploy': model },
    });
    server = await startFeedServer(worker.client, 'browser-deploy');
  });
  afterAll(async () => {
    await server?.close();
    if (worker) await endSession(worker.client.getSession(sessionId));
    await worker?.stop();
    await connections?.close();
  });

  it('shows the streamed text, a refused call with its reason, an approval it grants and the final answer, as they happen', async () => {
    const screenshots = path.join(artifactsDir, 'live-feed');
    mkdirSync(screenshots, { recursive: true });
    await withChromium(async (page) => {
      page.setDefaultTimeout(60_000);
      await page.goto(`${server.url}/?session=${sessionId}`);
      await page.fill('#text', 'Deploy the service.');
      await page.click('#send button[type=submit]');

      // The model answers only after ten minutes: its first words on the page were streamed live.
      const thinking = page.locator('.text', { hasText: 'Thinking' });
      await thinking.waitFor();
      await page.screenshot({ path: path.join(screenshots, '1-streaming.png') });
      await page.fill('#text', 'Deploy now, checks first.');
      await page.click('#interrupt');
      await page.locator('.interrupt', { hasText: 'Deploy now, checks first.' }).waitFor();

      const refused = page.locator('.tool.refused[data-call-id="deploy_early"]');
      await refused.locator('.verdict.blocked').waitFor();
      expect(await refused.locator('.verdict.blocked').textContent()).toMatch(/\[prerequisite_not_met\].*check/);

      // The deploy waits for a person: only the click lets the session go on.
      const approval = page.locator('[data-approval="deploy_1"]');
      await approval.locator('button', { hasText: 'Approve' }).waitFor();
      expect(await approval.textContent()).toContain('requires permission');
      await page.screenshot({ path: path.join(screenshots, '2-awaiting-approval.png') });
      await approval.locator('button', { hasText: 'Approve' }).click();
      await approval.locator('.decision', { hasText: 'approved' }).waitFor();
      await page.locator('.tool.done[data-call-id="deploy_1"]').waitFor();

      await page.locator('.text', { hasText: deployedAnswer }).waitFor();
      await page.locator('.run-end', { hasText: 'answered' }).waitFor();
      await page.screenshot({ path: path.join(screenshots, '3-answered.png'), fullPage: true });
      expect(await page.locator('.run').count()).toBe(2);
      expect(await page.locator('#connection').textContent()).toBe('(live)');
    });
  });
});
