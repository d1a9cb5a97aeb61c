import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { FreshBundleReport } from '../../fixtures/bundle-in-fresh-process';

const fixture = path.resolve(__dirname, '../../fixtures/bundle-in-fresh-process.ts');

/** Runs the fixture in a fresh Node process in `mode`; returns its report and what it wrote to stderr. */
async function bundleInFreshProcess(mode: string): Promise<{ report: FreshBundleReport; stderr: string }> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, TOOLRAIL_BUNDLE_MODE: mode },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { report: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as FreshBundleReport, stderr };
}

describe("toolrail's workflow bundle, made in a child process", () => {
  it("holds the session workflow, and webpack never compiles in the worker's process", async () => {
    const { report } = await bundleInFreshProcess('plain');
    expect(report.errors).toEqual([]);
    expect(report.hasSessionWorkflow).toBe(true);
    expect(report.codeBytes).toBeGreaterThan(1_000_000);
    expect(report.webpackCompiledHere).toBe(false);
  });

  it("is made in the worker's own process, with one line saying so, where no child process can start", async () => {
    const { report, stderr } = await bundleInFreshProcess('no-child-process');
    expect(report.errors).toEqual([]);
    expect(report.hasSessionWorkflow).toBe(true);
    expect(report.webpackCompiledHere).toBe(true);
    expect(stderr).toMatch(/\[bundler\] bundling in the worker's process: .*ENOENT/);
  });

  it("fails with webpack's error, its details (the module it could not find) on stderr, and is not kept: the next call bundles again", async () => {
    const { report, stderr } = await bundleInFreshProcess('missing-module');
    expect(report.errors).toEqual([
      expect.stringMatching(/^Webpack finished with errors/),
      expect.stringMatching(/^Webpack finished with errors/),
    ]);
    expect(stderr).toContain('/nonexistent/interceptors.js');
    // Each call ran webpack in a process of its own: two compilations reported their error.
    expect(stderr.match(/compiled with 1 error/g)).toHaveLength(2);
    expect(report.codeBytes).toBeUndefined();
    expect(report.webpackCompiledHere).toBe(false);
  });
});
