import path from 'node:path';

/** The workflow bundle's entry point (every toolrail workflow). */
export const workflowsPath = path.resolve(__dirname, '../../workflows/index.ts');
