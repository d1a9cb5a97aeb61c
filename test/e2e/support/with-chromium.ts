import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import '../../harness/provided-context';

/** Flags for Debian's Chromium, headless, as root, with nothing reaching out to the network on its own. */
const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Runs `body` with a page of a headless Chromium (the one the e2e global setup provides), on a
 * fresh profile directory; closes the browser and removes the profile afterwards, whatever happens.
 *
 * Playwright refuses `--user-data-dir` in `launch()`'s args, so the fresh profile is given to
 * `launchPersistentContext`, which passes it to Chromium as `--user-data-dir`.
 */
export async function withChromium<T>(body: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-e2e-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: inject('chromiumPath'),
      headless: true,
      args: chromiumArgs,
      viewport: { width: 1440, height: 1000 },
      timeout: 60_000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
    return await body(page, context);
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** Where browser tests save screenshots (gitignored). */
export const artifactsDir = path.join(__dirname, '..', '..', '..', 'test-artifacts');
