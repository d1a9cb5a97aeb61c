import path from 'node:path';

/** The module toolrail passes as `payloadConverterPath` to workers, bundles and clients. */
export const payloadConverterPath = path.resolve(__dirname, '../session/payload-converter.ts');
