import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: unknown;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: unknown };
  entrypoint?: unknown;
  command?: unknown;
  environment?: Record<string, string>;
}

function readCompose(): { services: Record<string, ComposeService> } {
  return parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
}

function readDockerfile(): string {
  return readFileSync(path.join(root, 'Dockerfile'), 'utf8');
}

/** A one-shot job's shell script (its `command`), as one string. */
function scriptOf(service: ComposeService | undefined): string {
  return JSON.stringify(service?.command ?? '');
}

describe('docker-compose.yml', () => {
  it('has the services of Temporal’s reference stack plus the content store setup, the UI and the worker', () => {
    expect(Object.keys(readCompose().services).sort()).toEqual([
      'content-store-setup',
      'postgresql',
      'temporal',
      'temporal-admin-tools',
      'temporal-create-namespace',
      'temporal-ui',
      'worker',
    ]);
  });

  it('uses no deprecated auto-setup image: the server image runs and admin-tools sets up the schema', () => {
    const { services } = readCompose();
    for (const [name, service] of Object.entries(services)) {
      expect(service.image ?? '', `${name} image`).not.toMatch(/auto-setup/);
    }
    expect(services.postgresql?.image).toMatch(/^postgres:/);
    expect(services.temporal?.image).toMatch(/^temporalio\/server:/);
    expect(services['temporal-admin-tools']?.image).toMatch(/^temporalio\/admin-tools:/);
    expect(services['temporal-create-namespace']?.image).toMatch(/^temporalio\/admin-tools:/);
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    expect(services.temporal?.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
  });

  it('sets up both Temporal schemas in PostgreSQL with temporal-sql-tool before the server starts', () => {
    const { services } = readCompose();
    const setup = scriptOf(services['temporal-admin-tools']);
    expect(setup).toContain('temporal-sql-tool --plugin postgres12');
    expect(setup).toContain('temporal temporal_visibility');
    expect(setup).toContain('setup-schema');
    expect(setup).toContain('update-schema');
    expect(services.temporal?.depends_on).toEqual({
      'temporal-admin-tools': { condition: 'service_completed_successfully' },
    });
  });

  it('creates the namespace in a one-shot job once the server is healthy, and registers every search attribute there', async () => {
    const { toolrailSearchAttributes } = await import('../../../src/session/search-attributes');
    const { services } = readCompose();
    const job = services['temporal-create-namespace'];
    expect(job?.depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    expect(scriptOf(job)).toContain('temporal operator namespace create');
    for (const key of toolrailSearchAttributes) expect(scriptOf(job)).toContain(`--name ${key.name}`);
  });

  it('gives the worker a PostgreSQL content store of its own database and user', () => {
    const { services } = readCompose();
    const url = new URL(services.worker?.environment?.TOOLRAIL_CONTENT_STORE ?? 'missing:');
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgresql');
    expect(url.port).toBe('5432');
    const database = url.pathname.slice(1);
    expect(database).not.toBe('temporal');
    const setup = scriptOf(services['content-store-setup']);
    expect(setup).toContain(`CREATE ROLE ${url.username} LOGIN PASSWORD '${url.password}'`);
    expect(setup).toContain(`CREATE DATABASE ${database} OWNER ${url.username}`);
    expect(services['content-store-setup']?.depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
  });

  it('starts the worker only after the server, the namespace job and the content store setup', () => {
    const { services } = readCompose();
    expect(services.worker?.depends_on).toEqual({
      temporal: { condition: 'service_healthy' },
      'temporal-create-namespace': { condition: 'service_completed_successfully' },
      'content-store-setup': { condition: 'service_completed_successfully' },
    });
    expect(services['temporal-ui']?.depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    for (const name of ['postgresql', 'temporal', 'temporal-ui', 'worker']) {
      expect(services[name]?.healthcheck?.test, `${name} has a health check`).toBeDefined();
    }
  });

  it('runs the worker compiled, with plain node, never tsx', () => {
    const { services } = readCompose();
    expect(services.worker?.build).toBe('.');
    expect(JSON.stringify(services.worker)).not.toMatch(/tsx|\.ts"/);
    expect(scriptOf(services.worker)).toContain('dist/');
    const dockerfile = readDockerfile();
    expect(dockerfile).toMatch(/RUN npm ci .*\n(.*\n)*RUN npm run build && npm prune --omit=dev/);
    expect(dockerfile).toMatch(/ENTRYPOINT \["node", "bin\/toolrail.cjs"\]/);
    expect(dockerfile).not.toMatch(/tsx/);
  });
});
