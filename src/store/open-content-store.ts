import path from 'node:path';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { createDirectoryContentStore } from './directory-content-store';
import { createPostgresContentStore } from './postgres-content-store';

/** Where the embedded store lives when nothing else is configured, relative to the working directory. */
export const defaultContentDirectory = path.join('.toolrail', 'content');

/**
 * Opens the content store a spec names: a `postgres://` or `postgresql://` URL opens the PostgreSQL
 * store (for workers on many machines); a `file:` URL or a path opens the embedded directory store.
 * Without a spec: `TOOLRAIL_CONTENT_STORE`, else the directory `.toolrail/content` under the working
 * directory. Every worker and client of a session must open the same store.
 */
export function openContentStore(spec: string | undefined = process.env['TOOLRAIL_CONTENT_STORE']): ContentStore {
  const chosen = spec === undefined || spec.trim() === '' ? defaultContentDirectory : spec.trim();
  if (/^postgres(ql)?:\/\//i.test(chosen)) return createPostgresContentStore(chosen);
  if (/^file:/i.test(chosen)) return createDirectoryContentStore(new URL(chosen).pathname);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(chosen)) {
    throw new ContentStoreError({
      code: 'INVALID_STORE',
      message: `content store ${JSON.stringify(chosen.replace(/\/\/[^@/]*@/, '//…@'))}: unknown kind; use a directory path, a file: URL or a postgres:// URL`,
    });
  }
  return createDirectoryContentStore(chosen);
}
