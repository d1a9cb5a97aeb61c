import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');

describe("the README's reference", () => {
  it.each([
    ['toolrail', () => import('../../../src/index')],
    ['toolrail/client', () => import('../../../src/client-entry')],
    ['toolrail/ai-sdk', () => import('../../../src/ai-sdk-entry')],
    ['toolrail/testing', () => import('../../../src/testing')],
    ['toolrail/workflow', () => import('../../../src/workflow-entry')],
  ])('names every value %s exports', { timeout: 60_000 }, async (_entry, load) => {
    const exported = Object.keys(await load());
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
