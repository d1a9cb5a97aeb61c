import type { TestProject } from 'vitest/node';
import { ensureChromium } from './ensure-chromium';
import { startHarnessServer } from './start-harness-server';
import './provided-context';

/**
 * End-to-end tier: finds (or, as root with apt-get, installs) the Chromium the browser tests drive,
 * then starts one dev server per test run, with its Web UI.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromium = await ensureChromium({ onProgress: (line) => process.stderr.write(`[chromium] ${line}\n`) });
  process.stderr.write(`[chromium] ${chromium.version} at ${chromium.path} (${chromium.source})\n`);
  project.provide('chromiumPath', chromium.path);
  return startHarnessServer(project, { ui: true });
}
