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
  command?: unknown;
}

function readCompose(): { services: Record<string, ComposeService> } {
  return parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
}

describe('docker-compose.yml', () => {
  it('has the production-like services: database, server, search-attribute setup, UI and worker', () => {
    expect(Object.keys(readCompose().services).sort()).toEqual([
      'postgresql',
      'temporal',
      'temporal-setup',
      'temporal-ui',
      'worker',
    ]);
  });

  it('uses official images and builds the worker from the repository Dockerfile', () => {
    const { services } = readCompose();
    expect(services.postgresql?.image).toMatch(/^postgres:/);
    expect(services.temporal?.image).toMatch(/^temporalio\/auto-setup:/);
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    expect(services.worker?.build).toBe('.');
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toMatch(/ENTRYPOINT \["node", "bin\/toolrail.cjs"\]/);
  });

  it('starts each service only after what it needs is healthy', () => {
    const { services } = readCompose();
    expect(services.temporal?.depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(services['temporal-ui']?.depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    expect(services.worker?.depends_on).toEqual({
      temporal: { condition: 'service_healthy' },
      'temporal-setup': { condition: 'service_completed_successfully' },
    });
    for (const name of ['postgresql', 'temporal', 'temporal-ui', 'worker']) {
      expect(services[name]?.healthcheck?.test, `${name} has a health check`).toBeDefined();
    }
  });

  it('registers every search attribute the sessions set', async () => {
    const { toolrailSearchAttributes } = await import('../../../src/session/search-attributes');
    const setup = JSON.stringify(readCompose().services['temporal-setup']?.command);
    for (const key of toolrailSearchAttributes) expect(setup).toContain(`--name ${key.name}`);
  });
});
