import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSessionStore } from '../../../activities/store-failures';
import { namingSessionStore } from '../../../src/session/store-problem';
import { ContentStoreError } from '../../../src/store/content-store-error';
import { readStoreIdentity } from '../../../src/store/content-store';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';

describe('a worker whose store is not the session’s', () => {
  let directory: string;
  let mine: DirectoryContentStore;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-store-check-'));
    mine = new DirectoryContentStore(path.join(directory, 'b'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));
  const sessionStore = { id: 'f3a1c2d4-0000-4000-8000-000000000001', description: 'directory:a:/srv/a' };

  async function refusal(storeId: string): Promise<ContentStoreError> {
    const error = await checkSessionStore(mine, storeId, 's1').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof ContentStoreError)) throw new Error(`expected a ContentStoreError, got ${String(error)}`);
    return error;
  }

  it('given the session’s store by its id alone, refuses naming it by id and its own store in full', async () => {
    const error = await refusal(sessionStore.id);
    const own = await readStoreIdentity(mine);
    expect(error.code).toBe('STORE_MISMATCH');
    expect(error.message).toContain(`the store with id ${sessionStore.id}`);
    expect(error.message).toContain(`${own.description} (store id ${own.id})`);
  });

  it('the session names its store in full in the wait it shows, with the worker’s store as the worker said it', async () => {
    const error = await refusal(sessionStore.id);
    const shown = namingSessionStore(error.message, sessionStore);
    expect(shown).toContain(`${sessionStore.description} (store id ${sessionStore.id})`);
    expect(shown).not.toContain('the store with id');
    expect(shown).toContain(mine.description);
  });

  it('serves a session whose store it has, given by its id alone', async () => {
    const own = await readStoreIdentity(mine);
    await expect(checkSessionStore(mine, own.id, 's1')).resolves.toBeUndefined();
  });
});
