import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConnection } from '../../../src/cli/connection/resolve-connection';
import { scratchDirectory } from '../../helpers/scratch-directory';

function configFile(text: string): string {
  const file = path.join(scratchDirectory('toolrail-profile-'), 'temporal.toml');
  writeFileSync(file, text);
  return file;
}

describe('resolveConnection', () => {
  it('defaults to the local dev server, the default namespace and the toolrail task queue', () => {
    expect(resolveConnection({}, {})).toEqual({
      address: 'localhost:7233',
      namespace: 'default',
      taskQueue: 'toolrail',
      uiUrl: 'http://localhost:8233',
    });
  });

  it("reads the temporal CLI's environment variables, and an API key turns TLS on", () => {
    const resolved = resolveConnection(
      {},
      {
        TEMPORAL_ADDRESS: 'ns.abc.tmprl.cloud:7233',
        TEMPORAL_NAMESPACE: 'ns.abc',
        TEMPORAL_API_KEY: 'key-1',
        TOOLRAIL_TASK_QUEUE: 'agents',
      },
    );
    expect(resolved).toMatchObject({
      address: 'ns.abc.tmprl.cloud:7233',
      namespace: 'ns.abc',
      apiKey: 'key-1',
      taskQueue: 'agents',
    });
    expect(resolved.tls).toBeTruthy();
  });

  it('reads a named profile of a config file, and flags win over it', () => {
    const file = configFile(
      ['[profile.staging]', 'address = "staging.internal:7233"', 'namespace = "agents"', ''].join('\n'),
    );
    expect(resolveConnection({ profile: 'staging', 'config-file': file }, {})).toMatchObject({
      address: 'staging.internal:7233',
      namespace: 'agents',
    });
    expect(resolveConnection({ profile: 'staging', 'config-file': file, namespace: 'other' }, {})).toMatchObject({
      address: 'staging.internal:7233',
      namespace: 'other',
    });
  });
});
