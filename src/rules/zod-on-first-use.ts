import type * as zodModule from 'zod';

/**
 * zod, loaded when first asked for. Every workflow run evaluates the bundle's modules anew, and a
 * module-level import of zod would evaluate its hundred-odd classes in each run and keep them while
 * the session is cached, though a run that gets no message and whose start input the client checked
 * never builds a schema. The modules the workflow bundle holds build their schemas through this.
 */
export function zod(): typeof zodModule.z {
  // A static module, bundled like any other: only its evaluation waits until it is first needed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- see above
  return (require('zod') as typeof zodModule).z;
}
