import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ContentStoreError } from '../../src/store/content-store-error';
import { openContentStore } from '../../src/store/open-content-store';

it('opens a directory store for a path, relative to the working directory, named with its machine', () => {
  expect(openContentStore('some/dir').description).toBe(`directory:${os.hostname()}:${path.resolve('some/dir')}`);
});

it('opens a directory store for a file URL', () => {
  expect(openContentStore('file:///var/tmp/content').description).toBe(`directory:${os.hostname()}:/var/tmp/content`);
});

it('opens a PostgreSQL store for a postgres URL, describing it without the password', async () => {
  const store = openContentStore('postgresql://me:pw@db.example:5433/toolrail');
  expect(store.description).toBe('postgres:me@db.example:5433/toolrail');
  await store.close();
});

it('rejects an unknown scheme as an invalid store, saying what works', () => {
  try {
    openContentStore('s3://bucket');
    throw new Error('expected a rejection');
  } catch (error) {
    expect(error).toBeInstanceOf(ContentStoreError);
    expect((error as ContentStoreError).code).toBe('INVALID_STORE');
    expect((error as Error).message).toContain('postgres://');
  }
});
