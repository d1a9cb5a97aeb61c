import path from 'node:path';

/**
 * The workflow bundle's entry point (every toolrail workflow): the TypeScript source when toolrail
 * runs from its repository (through tsx or vitest), the compiled `dist/workflows/index.js` when it
 * runs from the installed package. Both sit two folders above this file.
 */
export const workflowsPath = path.resolve(
  __dirname,
  '../../workflows',
  path.extname(__filename) === '.ts' ? 'index.ts' : 'index.js',
);
