import type { TestProject } from 'vitest/node';
import { startHarnessServer } from './start-harness-server';

/** End-to-end tier: one dev server per test run, with its Web UI. */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return startHarnessServer(project, { ui: true });
}
