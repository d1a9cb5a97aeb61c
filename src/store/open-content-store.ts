import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { DirectoryContentStore } from './directory-content-store';
import { PostgresContentStore } from './postgres-content-store';

/** Environment variable naming the content store when no spec is given. */
export const contentStoreEnv = 'TOOLRAIL_CONTENT_STORE';

/** Default directory store, relative to the current working directory (`.toolrail/` is gitignored). */
export const defaultContentDirectory = path.join('.toolrail', 'content');

/**
 * Opens the content store named by `spec`:
 * - `postgres://…` or `postgresql://…`: a {@link PostgresContentStore};
 * - `file:` URL or a path: a {@link DirectoryContentStore};
 * - undefined or empty: `$TOOLRAIL_CONTENT_STORE`, else `.toolrail/content` under the current working directory.
 * Rejects a spec it cannot read with a `ContentStoreError` of code `INVALID_STORE`.
 */
export function openContentStore(spec?: string): ContentStore {
  const chosen = spec?.trim() || process.env[contentStoreEnv]?.trim() || '';
  if (chosen === '') return new DirectoryContentStore(path.resolve(defaultContentDirectory));
  if (/^postgres(ql)?:\/\//i.test(chosen)) return new PostgresContentStore(chosen);
  if (/^file:/i.test(chosen)) {
    try {
      return new DirectoryContentStore(fileURLToPath(chosen));
    } catch {
      // Not the URL parser's error as the cause: it carries the whole spec, a password included.
      throw invalid(chosen);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(chosen)) throw invalid(chosen);
  return new DirectoryContentStore(path.resolve(chosen));
}

/** The error for a spec that names no store: it shows the spec's scheme only, never the rest (credentials). */
function invalid(spec: string): ContentStoreError {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(spec)?.[0] ?? spec;
  return new ContentStoreError({
    code: 'INVALID_STORE',
    message: `Content store ${JSON.stringify(scheme)}… is not supported: use postgres://user@host/db, file:///absolute/dir or a directory path (set ${contentStoreEnv} or pass --store).`,
  });
}
