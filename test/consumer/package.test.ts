import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../..');
const projectFiles = path.join(__dirname, 'project');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** Children that hang are killed (the dev server's supervisor then stops the server). */
const timeout = 300_000;

/** Runs a command in `cwd` and resolves with its stdout; rejects with its stderr on a non-zero exit. */
async function command(file: string, args: string[], cwd: string): Promise<string> {
  const { stdout } = await run(file, args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * The package as users get it: `npm pack` (which builds through `prepack`), installed with
 * production dependencies only into a new project outside the repository.
 */
describe('the packed package in a new project', () => {
  let workDir: string;
  let app: string;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-consumer-'));
    app = path.join(workDir, 'app');
    cpSync(projectFiles, app, { recursive: true });
    cpSync(path.join(projectFiles, 'tsconfig.consumer.json'), path.join(app, 'tsconfig.json'));
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await command(npm, ['pack', '--pack-destination', workDir], repoRoot);
    const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm pack wrote no tarball');
    await command(npm, ['install', path.join(workDir, tarball), '--omit=dev', '--no-audit', '--no-fund'], app);
  });

  afterAll(() => {
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it('runs a scripted session to its end from a plain-Node ESM script, encrypted by its payload codec, and reads it with the CLI and the codec module', async () => {
    const stdout = await command(process.execPath, ['run-session.mjs'], app);
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
      status: { status: string; counters: { toolCalls: number } };
      ruleState: { rules: { counts: { tool: string; count: number }[] } };
      cli: { code: number; userText: string };
      refused: { code: number; stderr: string };
      storedItems: number;
      plaintextInStore: boolean;
    };
    expect(result.status).toMatchObject({ status: 'completed', counters: { toolCalls: 1 } });
    expect(result.ruleState.rules.counts).toEqual([expect.objectContaining({ tool: 'look_up_order', count: 1 })]);
    expect(result.cli).toEqual({ code: 0, userText: 'Where is ORD-1?' });
    expect(result.refused.code).toBe(1);
    expect(result.refused.stderr).toContain('--codec-module FILE or TOOLRAIL_CODEC_MODULE');
    expect(result.storedItems).toBeGreaterThanOrEqual(4);
    expect(result.plaintextInStore).toBe(false);
  });

  it('typechecks a TypeScript consumer against the shipped types', async () => {
    await expect(command(process.execPath, [tsc, '-p', 'tsconfig.json'], app)).resolves.toBe('');
  });

  it('runs the toolrail command with plain node', async () => {
    expect(await command(npx, ['--no-install', 'toolrail', '--help'], app)).toMatch(/^Usage: toolrail <command>/);
    const lines = (
      await command(
        npx,
        ['--no-install', 'toolrail', 'simulate', '--rules', 'rules.yaml', '--trace', 'trace.json'],
        app,
      )
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { calls?: { verdict: string }[] });
    expect(lines.map((line) => line.calls?.map((call) => call.verdict))).toEqual([
      undefined,
      ['allowed'],
      ['allowed'],
      ['blocked'],
    ]);
  });
});

describe('npm pack --dry-run', () => {
  it('lists the compiled package and no tests, test sources or fixtures', async () => {
    // Without --ignore-scripts: `prepack` builds dist/ first, so the listing does not depend on an earlier build.
    const { stdout } = await run(npm, ['pack', '--dry-run', '--json'], {
      cwd: repoRoot,
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/toolrail.cjs',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/testing.js',
        'dist/workflows/index.js',
      ]),
    );
    expect(
      files.filter(
        (file) => /(^|\/)(test|fixtures)\/|\.test\.|(^|\/)src\/.*\.ts$/.test(file) && !file.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });
});
