import type * as zodModule from 'zod';

/**
 * zod, loaded when first asked for (the rules part's own copy of the kernel's `zod`, which it may not
 * import): the workflow bundle holds these modules, and each workflow run evaluates them anew.
 */
export function zod(): typeof zodModule.z {
  // A static module, bundled like any other: only its evaluation waits until it is first needed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- loaded on first use (see above)
  return (require('zod') as typeof zodModule).z;
}
