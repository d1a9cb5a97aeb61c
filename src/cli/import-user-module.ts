import path from 'node:path';

/**
 * Loads a user's module (a worker module, a codec module) by its path. The compiled package turns
 * this `import()` into `require()` (CommonJS, or an ES module without top-level await on Node 22.12+),
 * which takes a path but no `file:` URL; in this repository, run through tsx, it stays a native
 * `import()` and also takes TypeScript.
 */
export function importUserModule(file: string): Promise<unknown> {
  return import(path.resolve(file));
}
