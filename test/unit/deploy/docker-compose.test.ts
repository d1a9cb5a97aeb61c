import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toolrailSearchAttributes } from '../../../src/session/search-attributes';
import { readStackDefinition, repoRoot } from '../../harness/stack/stack-definition';
import type { ComposeService } from '../../harness/stack/stack-definition';

const read = (file: string): string => readFileSync(path.join(repoRoot, file), 'utf8');
const stack = readStackDefinition();
const services = stack.services;
const service = (name: string): ComposeService => {
  const found = services[name];
  if (!found) throw new Error(`no service ${name}`);
  return found;
};

/** The repository files a job runs: its entrypoint and command words under a mounted folder, on the host. */
function hostFilesOf(job: ComposeService): string[] {
  return [...(job.entrypoint ?? []), ...(job.command ?? [])].flatMap((word) =>
    (job.volumes ?? []).flatMap((volume) => {
      const [source = '', target = ''] = volume.split(':');
      return word.startsWith(`${target}/`) ? [path.join(source, word.slice(target.length))] : [];
    }),
  );
}

describe('docker-compose.yml', () => {
  it('has the services of Temporal’s reference stack plus the content store setup and the worker', () => {
    expect(Object.keys(services).sort()).toEqual([
      'content-store-setup',
      'postgresql',
      'temporal',
      'temporal-admin-tools',
      'temporal-create-namespace',
      'temporal-ui',
      'worker',
    ]);
  });

  it('takes every version from .env, the reference’s set, one server version for the server and its tools', () => {
    const { env } = stack;
    expect(env.TEMPORAL_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(env.TEMPORAL_ADMINTOOLS_VERSION).toBe(env.TEMPORAL_VERSION);
    expect(service('temporal').image).toBe(`temporalio/server:${env.TEMPORAL_VERSION}`);
    expect(service('temporal-admin-tools').image).toBe(`temporalio/admin-tools:${env.TEMPORAL_VERSION}`);
    expect(service('temporal-create-namespace').image).toBe(`temporalio/admin-tools:${env.TEMPORAL_VERSION}`);
    expect(service('temporal-ui').image).toBe(`temporalio/ui:${env.TEMPORAL_UI_VERSION}`);
    expect(service('postgresql').image).toBe(`postgres:${env.POSTGRESQL_VERSION}`);
    expect(service('content-store-setup').image).toBe(`postgres:${env.POSTGRESQL_VERSION}`);
    // No image tag is written in the compose file itself.
    const raw = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
    for (const [name, { image }] of Object.entries(raw.services)) {
      if (image !== undefined) expect(image, name).toMatch(/:\$\{[A-Z_]+(:\?[^}]*)?\}$/);
    }
  });

  it('keeps secrets in .env: the compose file names no password, and .env is kept out of git and the image', () => {
    const raw = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
    for (const [name, { environment = {} }] of Object.entries(raw.services)) {
      for (const [key, value] of Object.entries(environment)) {
        if (/PASSWORD|PWD|CONTENT_STORE|API_KEY/.test(key)) expect(String(value), `${name}.${key}`).toMatch(/\$\{/);
      }
    }
    expect(stack.env.POSTGRES_PASSWORD).toMatch(/^change-me/);
    expect(stack.env.TOOLRAIL_DB_PASSWORD).toMatch(/^change-me/);
    expect(read('.gitignore').split('\n')).toEqual(expect.arrayContaining(['.env', '.env.*', '!.env.example']));
  });

  it('publishes ports on the loopback interface only', () => {
    const published = Object.values(services).flatMap(({ ports = [] }) => ports);
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('names the namespace once, in .env, for the namespace job and the worker', () => {
    expect(service('temporal-create-namespace').environment?.DEFAULT_NAMESPACE).toBe(stack.env.TEMPORAL_NAMESPACE);
    expect(service('worker').environment?.TEMPORAL_NAMESPACE).toBe(stack.env.TEMPORAL_NAMESPACE);
    expect(read('docker-compose.yml')).not.toMatch(/NAMESPACE: [a-z]/);
    expect(read('deploy/create-namespace.sh')).not.toMatch(/--namespace\s+[a-z]/);
  });

  it('runs the jobs from deploy/, whose scripts stop at the first error and hide none', () => {
    for (const name of ['temporal-admin-tools', 'temporal-create-namespace', 'content-store-setup']) {
      const files = hostFilesOf(service(name));
      expect(files, name).toHaveLength(1);
      const script = read(files[0] ?? '');
      expect(script, name).toMatch(/^set -eu$/m);
      expect(script, name).not.toMatch(/\|\|\s*true|2>\/dev\/null\s*\|\|/);
    }
    expect(service('temporal').depends_on).toEqual({
      'temporal-admin-tools': { condition: 'service_completed_successfully' },
    });
  });

  it('mounts the reference’s dynamic config into the server, which forces search attributes to be read fresh', () => {
    const temporal = service('temporal');
    expect(temporal.volumes).toEqual(['./deploy/dynamicconfig:/etc/temporal/config/dynamicconfig:ro']);
    const file = temporal.environment?.DYNAMIC_CONFIG_FILE_PATH ?? '';
    expect(file).toBe('config/dynamicconfig/development-sql.yaml');
    const config = parse(read(path.join('deploy/dynamicconfig', path.basename(file)))) as Record<
      string,
      { value: unknown }[]
    >;
    expect(config['system.forceSearchAttributesCacheRefreshOnRead']?.[0]?.value).toBe(true);
    expect(config['limit.maxIDLength']?.[0]?.value).toBe(255);
  });

  it('registers every search attribute toolrail sets, with its type, in the namespace job', () => {
    const script = read('deploy/create-namespace.sh');
    const registered = [...script.matchAll(/--name (\w+) --type (\w+)/g)].map(([, name, type]) => ({ name, type }));
    const typeNames: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int' };
    expect(registered).toEqual(toolrailSearchAttributes.map((key) => ({ name: key.name, type: typeNames[key.type] })));
  });

  it('gives the worker a PostgreSQL content store of its own database and user', () => {
    const url = new URL(service('worker').environment?.TOOLRAIL_CONTENT_STORE ?? 'missing:');
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgresql');
    expect(url.pathname.slice(1)).toBe(stack.env.TOOLRAIL_DB_NAME);
    expect(url.pathname.slice(1)).not.toBe('temporal');
    expect(url.username).toBe(stack.env.TOOLRAIL_DB_USER);
    expect(service('content-store-setup').environment).toMatchObject({
      TOOLRAIL_DB_NAME: url.pathname.slice(1),
      TOOLRAIL_DB_USER: url.username,
      TOOLRAIL_DB_PASSWORD: url.password,
    });
  });

  it('starts the worker after the server and the jobs, restarts it, and checks the worker itself', () => {
    const worker = service('worker');
    expect(worker.depends_on).toEqual({
      temporal: { condition: 'service_healthy' },
      'temporal-create-namespace': { condition: 'service_completed_successfully' },
      'content-store-setup': { condition: 'service_completed_successfully' },
    });
    expect(worker.restart).toBe('unless-stopped');
    expect(worker.healthcheck?.test).toEqual(['CMD', 'node', 'bin/toolrail.cjs', 'worker', '--health']);
    expect(stack.image.env.TOOLRAIL_WORKER_HEALTH_FILE).toBeTruthy();
    for (const name of ['postgresql', 'temporal', 'temporal-ui']) {
      expect(service(name).healthcheck?.test, `${name} has a health check`).toBeDefined();
    }
  });

  it('runs the worker compiled, with plain node, never tsx', () => {
    const worker = service('worker');
    expect(worker.build).toBe('.');
    expect(JSON.stringify(worker)).not.toMatch(/tsx|\.ts"/);
    expect(worker.command).toEqual(['worker', '--module', 'dist/examples/support-desk/worker-module.js']);
    expect(existsSync(path.join(repoRoot, 'examples/support-desk/worker-module.ts'))).toBe(true);
    const tsconfig = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    expect(tsconfig.include).toContain('examples');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds on Node 24 and runs the compiled CLI with plain node', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map(([, image]) => image)).toEqual([
      'node:24-bookworm-slim',
      'node:24-bookworm-slim',
    ]);
    expect(dockerfile).toMatch(/RUN npm ci .*\n(.*\n)*RUN npm run build && npm prune --omit=dev/);
    expect(stack.image.entrypoint).toEqual(['node', 'bin/toolrail.cjs']);
    expect(stack.image.copied.sort()).toEqual(['bin', 'dist', 'node_modules', 'package-lock.json', 'package.json']);
    expect(dockerfile).not.toMatch(/tsx/);
  });

  it('keeps conversations, keys, local builds and caches out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toEqual(
      expect.arrayContaining([
        '.git',
        '.toolrail',
        '.env',
        '.env.*',
        'node_modules',
        'dist',
        'coverage',
        'test-artifacts',
      ]),
    );
  });
});
