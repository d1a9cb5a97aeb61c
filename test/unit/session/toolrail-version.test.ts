import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolrailVersion } from '../../../src/session';

describe('toolrailVersion', () => {
  it("is the package's version (a workflow trusts only its own version's check of a start input)", () => {
    const packageJson = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(toolrailVersion).toBe(packageJson.version);
  });
});
