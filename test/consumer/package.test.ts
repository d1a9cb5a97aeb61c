import { execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePythonTemporalio } from '../harness/python-temporalio';

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

/** The lowest version of a peer dependency toolrail supports: the floor of its `^` range in package.json. */
function lowestSupported(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const range = manifest.peerDependencies[name] ?? '';
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (!floor) throw new Error(`peer dependency ${name} has no ^X.Y.Z range: ${range}`);
  return floor;
}

/** The installed version of a package in `app`. */
function installedVersion(app: string, name: string): string {
  return (JSON.parse(readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

const temporalPeers = [
  'activity',
  'client',
  'common',
  'envconfig',
  'interceptors-opentelemetry',
  'plugin',
  'proto',
  'worker',
  'workflow',
].map((name) => `@temporalio/${name}`);

/** The directory every install of this file goes in, and the package packed once into it. */
const workRoot = mkdtempSync(path.join(os.tmpdir(), 'toolrail-consumer-'));
let packed: Promise<string> | undefined;
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

/** `npm pack` of the repository (which builds through `prepack`), once for the whole file: the tarball's path. */
function packOnce(): Promise<string> {
  packed ??= command(npm, ['pack', '--pack-destination', workRoot], repoRoot).then(() => {
    const tarball = readdirSync(workRoot).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm pack wrote no tarball');
    return path.join(workRoot, tarball);
  });
  return packed;
}

/**
 * A new project outside the repository with the consumer's files and the packed package installed
 * (production dependencies only): with the peer dependencies npm picks (the newest) or the lowest
 * toolrail supports, after an earlier `npm install` of the packages in `installedFirst`.
 */
async function newApp(name: string, { lowest, installedFirst = [] }: { lowest: boolean; installedFirst?: string[] }) {
  const app = path.join(workRoot, name);
  cpSync(projectFiles, app, { recursive: true });
  cpSync(path.join(projectFiles, 'tsconfig.consumer.json'), path.join(app, 'tsconfig.json'));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = ['--omit=dev', '--no-audit', '--no-fund'];
  if (installedFirst.length > 0) await command(npm, ['install', ...installedFirst, ...install], app);
  const pinned = lowest ? [...temporalPeers, 'zod'].map((peer) => `${peer}@${lowestSupported(peer)}`) : [];
  await command(npm, ['install', await packOnce(), ...pinned, ...install], app);
  return app;
}

/**
 * Where `@temporalio/common` and `@temporalio/proto` of `app` load protobufjs from (real paths), when
 * they depend on it: common's converters read and write claims with the message types that proto's
 * protobufjs built, and a type one copy built is no `Type` to another (`type must be a Type`), so
 * the two need one path. Found as Node finds a package: the nearest `node_modules/protobufjs` up
 * from each package's directory (Node's own resolver would answer from its cache after a change).
 */
function protobufRuntimesOfTemporal(app: string): Record<string, string> {
  const runtimes: Record<string, string> = {};
  for (const name of ['@temporalio/common', '@temporalio/proto']) {
    const directory = path.join(app, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    if (manifest.dependencies?.['protobufjs'] === undefined) continue;
    for (let from = directory; from !== path.dirname(from); from = path.dirname(from)) {
      const candidate = path.join(from, 'node_modules', 'protobufjs');
      if (!existsSync(path.join(candidate, 'package.json'))) continue;
      runtimes[name] = realpathSync(candidate);
      break;
    }
  }
  return runtimes;
}

/** Runs big-payloads.mjs in `app` (Python through `python`): what its sessions ended with. */
async function sendBigPayloads(app: string, python: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['big-payloads.mjs'], {
    cwd: app,
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PYTHON: python },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as unknown;
}

/** What big-payloads.mjs prints when every payload over 256 KiB got through and each session ended. */
const bigPayloadsTaken = {
  client: {
    status: 'completed',
    runs: 3,
    users: ['first', 'update', 'signal'],
    tools: [expect.stringMatching(/^Output too large \(300,008 characters\)/), '{"order_id":"ORD-1","refunded":true}'],
    approvals: ['approved'],
  },
  python: { status: 'completed', runs: 3 },
};

let python: string;
beforeAll(async () => {
  python = await ensurePythonTemporalio((line) => process.stderr.write(`${line}\n`));
});

/**
 * The package as users get it, installed into a new project outside the repository, once with the
 * peer dependencies npm picks (the newest) and once with the lowest toolrail supports.
 */
describe.each([
  { peers: 'the newest peer dependencies', lowest: false },
  { peers: 'the lowest supported peer dependencies', lowest: true },
])('the packed package in a new project, with $peers', ({ lowest }) => {
  let app: string;

  beforeAll(async () => {
    app = await newApp(lowest ? 'lowest' : 'newest', { lowest });
  });

  it('installs one copy of each Temporal package, at the versions asked for', () => {
    const versions = temporalPeers.map((name) => installedVersion(app, name));
    expect(new Set(versions).size).toBe(1);
    if (lowest) expect(versions[0]).toBe(lowestSupported('@temporalio/client'));
    if (lowest) expect(installedVersion(app, 'zod')).toBe(lowestSupported('zod'));
    // None nested under toolrail: the app's Temporal packages are the ones toolrail uses.
    expect(existsSync(path.join(app, 'node_modules', 'toolrail', 'node_modules', '@temporalio'))).toBe(false);
  });

  it('installs one copy of protobufjs for @temporalio/common and @temporalio/proto', () => {
    const runtimes = protobufRuntimesOfTemporal(app);
    expect(new Set(Object.values(runtimes)).size, JSON.stringify(runtimes, null, 2)).toBe(1);
  });

  it('takes a first message, an update, a signal, an approval and a tool result over 256 KiB, from ToolrailClient and from Python', async () => {
    expect(await sendBigPayloads(app, python)).toEqual(bigPayloadsTaken);
  });

  it('runs a scripted session to its end from a plain-Node ESM script, encrypted by its payload codec, following its live feed, and reads it with the CLI and the codec module', async () => {
    const stdout = await command(process.execPath, ['run-session.mjs'], app);
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
      status: { status: string; counters: { toolCalls: number } };
      ruleState: { rules: { counts: { tool: string; count: number }[] } };
      cli: { code: number; userText: string };
      refused: { code: number; stderr: string };
      storedItems: number;
      plaintextInStore: boolean;
      feed: string[];
      workflowFramesInStack: boolean;
    };
    expect(result.status).toMatchObject({ status: 'completed', counters: { toolCalls: 1 } });
    expect(result.ruleState.rules.counts).toEqual([expect.objectContaining({ tool: 'look_up_order', count: 1 })]);
    expect(result.feed).toEqual(
      expect.arrayContaining(['run_started', 'verdict', 'tool_started', 'tool_ended', 'run_ended']),
    );
    expect(result.feed.at(-1)).toBe('session_ended');
    expect(result.cli).toEqual({ code: 0, userText: 'Where is ORD-1?' });
    expect(result.refused.code).toBe(1);
    expect(result.refused.stderr).toContain('--codec-module FILE or TOOLRAIL_CODEC_MODULE');
    expect(result.storedItems).toBeGreaterThanOrEqual(4);
    expect(result.plaintextInStore).toBe(false);
    // The installed package's bundle keeps its stack-traces-off module (package.json's sideEffects).
    expect(result.workflowFramesInStack).toBe(false);
  });

  it('starts, follows and approves a session from a plain ESM app holding only toolrail/client, which loads no worker, bundler or test code', async () => {
    const server = spawn(process.execPath, ['serve-desk.mjs'], { cwd: app, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let output = '';
        server.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
          if (line) resolve((JSON.parse(line) as { address: string }).address);
        });
        server.once('exit', (code) => reject(new Error(`serve-desk.mjs exited with ${String(code)}`)));
      });
      const { stdout } = await run(process.execPath, ['client-only.mjs'], {
        cwd: app,
        timeout,
        env: { ...process.env, TEMPORAL_ADDRESS: address },
      });
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
        status: 'completed',
        completed: true,
        approved: ['refund_order'],
        lastText: 'ORD-1 is refunded.',
        forbidden: [],
        sameClass: true,
      });
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.stdin.end();
      await exited;
    }
  });

  it("adds the plugin to an app's existing worker from plain Node: its own workflow runs as before, and a new one asks an agent as a child session", async () => {
    const stdout = await command(process.execPath, ['existing-worker.mjs'], app);
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      greeting: 'Hello, Ada!',
      agent: { status: 'completed', lastRunEnd: 'answered', answer: 'Hello from the agent.', parentCancelled: false },
    });
  });

  it('typechecks a TypeScript consumer against the shipped types', async () => {
    await expect(command(process.execPath, [tsc, '-p', 'tsconfig.json'], app)).resolves.toBe('');
  });

  it('prints a start input with toolrail input that the shipped JSON Schema describes', async () => {
    const input = JSON.parse(
      await command(
        npx,
        ['--no-install', 'toolrail', 'input', '--rules', 'rules.yaml', '--model', 'scripted:desk'],
        app,
      ),
    ) as { rules: { format: string }; model: unknown };
    expect(input.rules.format).toBe('toolrail.compiled-rules');
    expect(input.model).toEqual({ provider: 'scripted', model: 'desk' });
    const schemaPath = await command(
      process.execPath,
      ['-p', "require.resolve('toolrail/session-input.schema.json')"],
      app,
    );
    const schema = JSON.parse(readFileSync(schemaPath.trim(), 'utf8')) as { $id: string; required: string[] };
    expect(schema.$id).toBe('urn:toolrail:session-input');
    expect(schema.required).toEqual(expect.arrayContaining(['rules', 'model']));
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

/**
 * An app that already has another protobufjs: `@grpc/proto-loader` (as apps that load .proto files
 * at run time have it) puts protobufjs 7 at the top of node_modules before toolrail is installed.
 * Temporal's packages need protobufjs 8, one copy for all of them: toolrail's peer dependency puts it
 * at the top, and the older one moves under `@grpc/proto-loader`.
 */
describe('the packed package in a new project that installed @grpc/proto-loader first', () => {
  let app: string;

  beforeAll(async () => {
    app = await newApp('proto-loader-first', { lowest: false, installedFirst: ['@grpc/proto-loader'] });
  });

  it('keeps protobufjs 7 for @grpc/proto-loader and installs one copy of protobufjs 8 for @temporalio/common and @temporalio/proto', () => {
    const protoLoader = createRequire(path.join(app, 'node_modules', '@grpc', 'proto-loader', 'package.json'));
    const older = JSON.parse(readFileSync(protoLoader.resolve('protobufjs/package.json'), 'utf8')) as {
      version: string;
    };
    expect(older.version).toMatch(/^7\./);
    const runtimes = protobufRuntimesOfTemporal(app);
    expect(new Set(Object.values(runtimes)).size, JSON.stringify(runtimes, null, 2)).toBe(1);
    expect(Object.keys(runtimes)).toEqual(['@temporalio/common', '@temporalio/proto']);
  });

  it('takes a first message, an update, a signal, an approval and a tool result over 256 KiB, from ToolrailClient and from Python', async () => {
    expect(await sendBigPayloads(app, python)).toEqual(bigPayloadsTaken);
  });

  it('refuses to make External Storage or a worker, naming both copies, once @temporalio/proto loads a copy of its own', async () => {
    // The layout npm made before toolrail's peer dependency: a nested copy for @temporalio/proto.
    const top = path.join(app, 'node_modules', 'protobufjs');
    const nested = path.join(app, 'node_modules', '@temporalio', 'proto', 'node_modules', 'protobufjs');
    cpSync(top, nested, { recursive: true });
    // The check of the test run sees two copies.
    const runtimes = protobufRuntimesOfTemporal(app);
    expect(new Set(Object.values(runtimes)).size).toBe(2);

    const { stdout } = await run(process.execPath, ['split-runtime.mjs'], { cwd: app, timeout });
    const refused = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<
      'client' | 'worker',
      { name: string; code: string; message: string }
    >;
    for (const refusal of [refused.client, refused.worker]) {
      expect(refusal).toMatchObject({ name: 'ExternalStorageUnusableError', code: 'EXTERNAL_STORAGE_UNUSABLE' });
      expect(refusal.message).toContain('type must be a Type');
      expect(refusal.message).toContain(realpathSync(top));
      expect(refusal.message).toContain(realpathSync(nested));
      expect(refusal.message).toContain('"protobufjs": "^8.7.1"');
    }
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
        'dist/src/client-entry.js',
        'dist/src/client-entry.d.ts',
        'dist/esm/index.mjs',
        'dist/esm/client.mjs',
        'dist/esm/client.d.mts',
        'dist/esm/testing.mjs',
        'dist/src/ai-sdk-entry.js',
        'dist/src/ai-sdk-entry.d.ts',
        'dist/esm/ai-sdk.mjs',
        'dist/esm/ai-sdk.d.mts',
        'dist/workflows/index.js',
        'dist/workflows/with-user-workflows.js',
        'dist/src/workflow-entry.js',
        'dist/src/workflow-entry.d.ts',
        'schema/session-input.schema.json',
      ]),
    );
    // The examples are built for the image, not shipped.
    expect(files.filter((file) => file.startsWith('dist/examples/'))).toEqual([]);
    expect(
      files.filter(
        (file) => /(^|\/)(test|fixtures)\/|\.test\.|(^|\/)src\/.*\.ts$/.test(file) && !file.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });
});
