import type * as zodModule from 'zod';

/**
 * zod, loaded when first asked for. The workflow bundle's modules that build schemas are preloaded
 * (`workflows/shared-modules.ts`) and keep each schema once built; a module-level import of zod
 * would evaluate its hundred-odd classes in every workflow thread, though one whose runs get no
 * message and whose start inputs the client checked never builds a schema. Those modules build
 * their schemas through this.
 */
export function zod(): typeof zodModule.z {
  // A static module, bundled like any other: only its evaluation waits until it is first needed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- see above
  return (require('zod') as typeof zodModule).z;
}
