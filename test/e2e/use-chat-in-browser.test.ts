import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../src/models';
import type { FeedEvent } from '../../src/session';
import { connectToHarness } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import { deployTools, deployedAnswer, startChatPage } from '../fixtures/live-feed-scenario';
import { ToolProbe } from '../helpers/tool-probe';
import { startBackgroundWorker } from './support/background-worker';
import type { BackgroundWorker } from './support/background-worker';
import { endSession } from './support/end-session';
import { artifactsDir, withChromium } from './support/with-chromium';

/**
 * A person uses a session through an unchanged `useChat` page (`examples/live-feed/page`: only its
 * `api` points at toolrail's chat handler) in a real headless Chromium: they watch the model's text
 * arrive and stop it, send another message, see the call the rules refuse with their reason, reload
 * the page while a call runs and find the run going on, and approve and deny calls with the AI SDK's
 * own approval parts.
 */
describe('a session behind useChat in the browser', () => {
  let connections: HarnessConnections;
  let worker: BackgroundWorker;
  let server: Awaited<ReturnType<typeof startChatPage>>;
  const probe = new ToolProbe();
  let sessionId: string | undefined;

  beforeAll(async () => {
    connections = await connectToHarness();
    const model = createScriptedModel([
      textResponse('Thinking about how to deploy this, at length…', { delayMs: 600_000 }),
      toolCallResponse('deploy', { answer: 'deployed' }, { id: 'deploy_early', text: 'Deploying right away.' }),
      toolCallResponse('check', { hold: true, answer: 'all checks pass' }, { id: 'check_1' }),
      toolCallResponse('deploy', { answer: 'deployed to production' }, { id: 'deploy_1' }),
      toolCallResponse('deploy', { answer: 'deployed twice' }, { id: 'deploy_2' }),
      textResponse(deployedAnswer, { delayMs: 1_500 }),
    ]);
    worker = await startBackgroundWorker({
      connections,
      tools: deployTools(probe),
      scriptedModels: { 'browser-chat': model },
    });
    // A reload comes back well within the window; a stop takes effect once it has passed.
    server = await startChatPage(worker.client, 'browser-chat', { reconnectWindowMs: 8_000 });
  });
  afterAll(async () => {
    await server?.close();
    if (worker && sessionId !== undefined) await endSession(worker.client.getSession(sessionId));
    await worker?.stop();
    await connections?.close();
  });

  it('shows the session live, stops it, resumes after a reload, and approves and denies with the AI SDK approvals', async () => {
    const screenshots = path.join(artifactsDir, 'use-chat');
    mkdirSync(screenshots, { recursive: true });
    await withChromium(async (page) => {
      page.setDefaultTimeout(60_000);
      await page.goto(`${server.url}/`);
      await page.fill('#text', 'Deploy the service.');
      await page.click('#send button[type=submit]');
      sessionId = new URL(page.url()).searchParams.get('chat') ?? undefined;
      if (sessionId === undefined) throw new Error('the page names no chat');
      const session = worker.client.getSession(sessionId);

      // The model answers only after ten minutes: its first words on the page were streamed live.
      await page.locator('.text', { hasText: 'Thinking' }).waitFor();
      await page.screenshot({ path: path.join(screenshots, '1-streaming.png') });
      await page.click('#stop');
      await page.locator('#status', { hasText: 'ready' }).waitFor();
      const firstRun: FeedEvent[] = [];
      for await (const event of session.events()) {
        firstRun.push(event);
        if (event.type === 'run_ended') break;
      }
      expect(firstRun.at(-1)).toMatchObject({ type: 'run_ended', reason: 'interrupted' });

      await page.fill('#text', 'Deploy now, checks first.');
      await page.click('#send button[type=submit]');
      const refused = page.locator('.tool.output-error[data-call-id="deploy_early"]');
      await refused.waitFor();
      expect(await refused.locator('.output').textContent()).toMatch(/\[prerequisite_not_met\].*check/);
      await page.locator('[data-call-id="check_1"]').waitFor();
      await probe.started('check_1');

      // A reload while the check runs: the page resumes the run where it is.
      await page.reload();
      await page.locator('[data-call-id="check_1"]').waitFor();
      await page.locator('.tool.output-error[data-call-id="deploy_early"]').waitFor();
      expect(new URL(page.url()).searchParams.get('chat')).toBe(sessionId);
      probe.release('check_1');
      await page.locator('.tool.output-available[data-call-id="check_1"]').waitFor();

      // The AI SDK's own approval parts: approve one deploy, deny the next.
      const first = page.locator('.tool.approval-requested[data-call-id="deploy_1"]');
      await first.waitFor();
      expect(await first.textContent()).toContain('requires permission');
      await page.screenshot({ path: path.join(screenshots, '2-awaiting-approval.png') });
      await first.locator('button', { hasText: 'Approve' }).click();
      await page.locator('.tool.output-available[data-call-id="deploy_1"]').waitFor();
      const second = page.locator('.tool.approval-requested[data-call-id="deploy_2"]');
      await second.waitFor();
      await second.locator('button', { hasText: 'Deny' }).click();
      await page.locator('.tool.output-denied[data-call-id="deploy_2"]').waitFor();

      await page.locator('.text', { hasText: deployedAnswer }).waitFor();
      await page.locator('#status', { hasText: 'ready' }).waitFor();
      await page.screenshot({ path: path.join(screenshots, '3-answered.png'), fullPage: true });
      expect(await page.locator('.error').count()).toBe(0);

      const decisions = (await session.transcript()).flatMap((entry) =>
        entry.kind === 'approval' ? [[entry.callId, entry.decision, entry.reason]] : [],
      );
      expect(decisions).toEqual([
        ['deploy_1', 'approved', undefined],
        ['deploy_2', 'denied', 'Denied on the page.'],
      ]);
      expect(probe.runsOf('deploy_1')).toHaveLength(1);
      expect(probe.runsOf('deploy_2')).toEqual([]);
    });
  });
});
