import type { TestProject } from 'vitest/node';
import { startHarnessServer } from './start-harness-server';

/** Integration and replay tier: one headless dev server per test run. */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return startHarnessServer(project, { ui: false });
}
