import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
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

it('never shows a password given in a store spec, in its description or in its errors', async () => {
  const secret = 'pw-never-shown';
  for (const spec of [
    `postgres://me:${secret}@db.example/toolrail`,
    `postgres://db.example/toolrail?user=me&password=${secret}`,
    `postgres://me:${secret}@db.example:notaport/toolrail`,
  ]) {
    const store = openContentStore(spec);
    expect(store.description).not.toContain(secret);
    await store.close();
  }
  for (const spec of [`file://me:${secret}@host/dir`, `s3://me:${secret}@bucket`]) {
    try {
      openContentStore(spec);
      throw new Error(`expected ${spec} to be refused`);
    } catch (error) {
      expect(error).toBeInstanceOf(ContentStoreError);
      // What a logger prints of the error, its cause included.
      expect(inspect(error, { depth: 5 })).not.toContain(secret);
    }
  }
});
