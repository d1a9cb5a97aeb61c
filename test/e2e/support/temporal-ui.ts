import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { artifactsDir } from './with-chromium';

/**
 * Drives the Temporal Web UI (2.42, served by the dev server) the way a person does. What the
 * selectors rest on, found by looking at the pages:
 * - the Queries tab (`…/workflows/ID/RUN_ID/query`) has a "Query Type" select
 *   (`[data-testid="query-select-button"]` opens a listbox of `role=option` items, each the query
 *   name plus its description; the chosen name is the value of `[data-testid="query-select"]`),
 *   a "Run Query" button (it becomes "Refresh Query" once run), a "JSON Formatting" switch
 *   (`#json-formatting`, on by default) and the result in a read-only CodeMirror editor under
 *   `[data-testid="query-result"]`;
 * - CodeMirror only renders the lines in view, so a long formatted result is read with the
 *   formatting switched off: then it is one (soft-wrapped) line, all of it in the DOM;
 * - the current details are on the "User Metadata" tab, rendered from Markdown inside an iframe
 *   (`/render?content=…`) next to the "Current Details" heading.
 * The UI keeps polling the server, so every wait is for content, never for network idle.
 */
export interface WorkflowPage {
  /** Base URL of the UI, e.g. `http://127.0.0.1:8233`. */
  ui: string;
  namespace: string;
  workflowId: string;
  runId: string;
}

/** How long to wait for content the UI loads from the server. */
const contentTimeoutMs = 45_000;

export function workflowUrl({ ui, namespace, workflowId, runId }: WorkflowPage): string {
  return `${ui}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}`;
}

/** Saves a full-page screenshot as `test-artifacts/NAME.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const file = path.join(artifactsDir, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Opens the Queries tab, selects `query`, clicks "Run Query" and returns the JSON the UI shows,
 * parsed. Rejects (with the text shown, and a screenshot saved) when no JSON result appears.
 */
export async function runQueryInUi(
  page: Page,
  workflow: WorkflowPage,
  query: string,
  artifact: string,
): Promise<unknown> {
  await page.goto(`${workflowUrl(workflow)}/query`);
  const select = page.locator('[data-testid="query-select"]');
  // The list of queries comes from the workflow (the __temporal_workflow_metadata query): wait for it.
  await waitFor(page, artifact, `a query selected in "Query Type"`, async () => (await select.inputValue()) !== '');
  if ((await select.inputValue()) !== query) {
    await page.locator('[data-testid="query-select-button"]').click();
    await page
      .getByRole('option')
      .filter({ has: page.getByText(query, { exact: true }) })
      .click();
  }
  await waitFor(page, artifact, `"${query}" selected`, async () => (await select.inputValue()) === query);
  await page.getByRole('button', { name: 'Run Query', exact: true }).click();

  const result = page.locator('[data-testid="query-result"] .cm-content');
  // Formatted first, as a person sees it (and for the screenshot)…
  await waitFor(page, artifact, 'a JSON result of the query', async () => /^\s*[[{]/.test(await result.innerText()));
  await saveScreenshot(page, artifact);
  // …then unformatted: one line, which CodeMirror renders whole, so all of it can be read.
  const formatting = page.locator('#json-formatting');
  if (await formatting.isChecked()) await page.getByText('JSON Formatting', { exact: true }).click();
  let parsed: unknown;
  await waitFor(page, artifact, 'the whole query result as one line of JSON', async () => {
    if (await formatting.isChecked()) return false;
    const text = await result.innerText();
    try {
      parsed = JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  });
  await saveScreenshot(page, `${artifact}-unformatted`);
  return parsed;
}

/**
 * Opens the workflow page, goes to its "User Metadata" tab and returns the text of the current
 * details (the rendered Markdown) once it contains `mustContain`.
 */
export async function readCurrentDetailsInUi(
  page: Page,
  workflow: WorkflowPage,
  mustContain: string,
  artifact: string,
): Promise<string> {
  await page.goto(workflowUrl(workflow));
  await page.getByRole('tab', { name: 'User Metadata' }).click();
  const details = page
    .locator('xpath=//h3[normalize-space()="Current Details"]/ancestor::div[.//iframe][1]//iframe')
    .contentFrame()
    .locator('body');
  let text = '';
  await waitFor(page, artifact, `current details containing "${mustContain}"`, async () => {
    text = normalizeSpace(await details.innerText({ timeout: 2_000 }).catch(() => ''));
    return text.includes(mustContain);
  });
  await saveScreenshot(page, artifact);
  return text;
}

/** Collapses runs of white space, as rendered text wraps and indents freely. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Polls `ready` until it holds, at most {@link contentTimeoutMs}; otherwise saves a screenshot
 * `NAME-failed.png` and rejects naming what did not appear.
 */
async function waitFor(page: Page, artifact: string, what: string, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + contentTimeoutMs;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) {
      const screenshot = await saveScreenshot(page, `${artifact}-failed`).catch(() => '(no screenshot)');
      const shown = normalizeSpace(
        await page
          .locator('main')
          .innerText({ timeout: 2_000 })
          .catch(() => ''),
      ).slice(0, 600);
      throw new Error(
        `the Temporal UI did not show ${what} within ${contentTimeoutMs} ms (screenshot: ${screenshot}); the page shows: ${shown}`,
      );
    }
    await sleep(250);
  }
}
