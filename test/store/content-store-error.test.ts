import { expect, it } from 'vitest';
import { ContentStoreError, redactSecrets } from '../../src/store/content-store-error';

it('never shows the password of a connection string, in a URL or as a setting', () => {
  expect(redactSecrets('connect to postgres://toolrail:s3cret@db:5432/x failed')).toBe(
    'connect to postgres://toolrail:***@db:5432/x failed',
  );
  expect(redactSecrets('host=db password=s3cret user=toolrail')).toBe('host=db password=*** user=toolrail');
  const error = ContentStoreError.unavailable('postgres:toolrail@db:5432/x', new Error('bad postgres://u:pw@db/x'));
  expect(error.message).not.toContain('pw@');
});

it('names the store and the cause (with its code) of an unavailable store, and the store of missing content', () => {
  const cause = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
  const unavailable = ContentStoreError.unavailable('directory:host:/data', cause, 's1', 'k1');
  expect(unavailable).toMatchObject({
    code: 'STORE_UNAVAILABLE',
    store: 'directory:host:/data',
    sessionId: 's1',
    key: 'k1',
  });
  expect(unavailable.message).toContain('write failed (ENOSPC)');
  const missing = ContentStoreError.missing('directory:host:/data', 's1', 'k1');
  expect(missing).toMatchObject({ code: 'CONTENT_MISSING', store: 'directory:host:/data' });
  expect(missing.message).toContain('Restore');
});

it('names both stores when a session belongs to another store', () => {
  const error = ContentStoreError.mismatch('directory:a:/x', 'directory:b:/x', 's1');
  expect(error.code).toBe('STORE_MISMATCH');
  expect(error.message).toContain('directory:a:/x');
  expect(error.message).toContain('directory:b:/x');
});
