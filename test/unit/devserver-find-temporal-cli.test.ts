import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTemporalCli } from '../../src/devserver/find-temporal-cli';
import { scratchDirectory } from '../helpers/scratch-directory';
import { TemporalCliNotFoundError } from '../../src/devserver/temporal-cli-not-found-error';

function fakeExecutable(directory: string, name: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
}

describe('findTemporalCli', () => {
  const scratch = (): string => scratchDirectory('toolrail-find-cli-');

  it('prefers TEMPORAL_CLI_PATH over everything else', async () => {
    const directory = scratch();
    const explicit = fakeExecutable(directory, 'my-temporal');
    fakeExecutable(directory, 'temporal');
    const found = await findTemporalCli({ env: { TEMPORAL_CLI_PATH: explicit, PATH: directory } });
    expect(found).toEqual({ kind: 'executable', path: explicit, source: 'TEMPORAL_CLI_PATH' });
  });

  it('refuses a TEMPORAL_CLI_PATH that is not an executable and says how to fix it', async () => {
    const error = await findTemporalCli({ env: { TEMPORAL_CLI_PATH: '/nonexistent/temporal', PATH: '' } }).catch(
      (caught: unknown) => caught,
    );
    expect(TemporalCliNotFoundError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/TEMPORAL_CLI_PATH=\/nonexistent\/temporal: not an executable/);
    expect(String((error as Error).message)).toMatch(/install Go/);
  });

  it('finds temporal on PATH before the cache', async () => {
    const onPath = scratch();
    const cache = scratch();
    const binary = fakeExecutable(onPath, 'temporal');
    const found = await findTemporalCli({ env: { PATH: onPath, TOOLRAIL_CACHE_DIR: cache } });
    expect(found).toEqual({ kind: 'executable', path: binary, source: 'PATH' });
  });

  it('uses the cached build when nothing is on PATH', async () => {
    const cache = scratch();
    const { cachedTemporalCliDirectory } = await import('../../src/devserver/find-temporal-cli');
    const directory = cachedTemporalCliDirectory({ TOOLRAIL_CACHE_DIR: cache });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(directory, { recursive: true });
    const binary = fakeExecutable(directory, 'temporal');
    const found = await findTemporalCli({ env: { PATH: scratch(), TOOLRAIL_CACHE_DIR: cache } });
    expect(found).toEqual({ kind: 'executable', path: binary, source: 'cache' });
  });

  it('falls back to the SDK download when there is no CLI and no Go', async () => {
    const found = await findTemporalCli({ env: { PATH: scratch(), TOOLRAIL_CACHE_DIR: scratch() } });
    expect(found).toEqual({ kind: 'sdk-download', version: 'v1.5.1' });
  });

  it('lists every place it tried when nothing works and downloads are not allowed', async () => {
    const error = await findTemporalCli({
      env: { PATH: scratch(), TOOLRAIL_CACHE_DIR: scratch() },
      allowSdkDownload: false,
    }).catch((caught: unknown) => caught);
    expect(TemporalCliNotFoundError.isInstance(error)).toBe(true);
    expect((error as TemporalCliNotFoundError).attempts).toEqual([
      'TEMPORAL_CLI_PATH: not set',
      '`temporal` on PATH: not found',
      expect.stringMatching(/^cached build .*temporal: not there yet$/),
      'building with Go: `go` is not on PATH',
    ]);
  });
});
