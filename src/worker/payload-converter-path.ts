import path from 'node:path';

/**
 * The payload converter the workflow bundle decodes with (`payloadConverterPath`): the TypeScript
 * source in the repository, the compiled module in the installed package.
 */
export const payloadConverterPath = path.resolve(
  __dirname,
  '../session',
  path.extname(__filename) === '.ts' ? 'payload-converter.ts' : 'payload-converter.js',
);
