import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(__dirname, '../../..');

// Counts the loads of zod in a fresh Node process: while the workflow bundle's modules are evaluated
// (those preloaded and shared by every session, and those each run evaluates), then once a schema
// is asked for.
const probe = `
const Module = require('node:module');
const load = Module._load;
let loads = 0;
Module._load = function (request, ...rest) {
  if (request === 'zod') loads += 1;
  return load.call(this, request, ...rest);
};
require('./workflows/shared-modules.ts');
require('./workflows/index.ts');
const evaluated = loads;
require('./src/session/index.ts').sessionStartInputSchema();
process.stdout.write(JSON.stringify({ evaluated, askedForSchema: loads }));
`;

describe("the workflow bundle's modules", () => {
  it('load no zod when evaluated (a preloaded zod would be frozen by the SDK), only once a schema is asked for', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    const { evaluated, askedForSchema } = JSON.parse(output) as { evaluated: number; askedForSchema: number };
    expect(evaluated).toBe(0);
    expect(askedForSchema).toBeGreaterThan(0);
  });
});
