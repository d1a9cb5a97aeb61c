import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolrailSearchAttributes } from '../../../src/session/search-attributes';

const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');

describe("the README's search attributes", () => {
  it('name every search attribute toolrail sets, where it says what to register', () => {
    const register = readme.slice(readme.indexOf('register the'), readme.indexOf('## Limits')).replace(/\s+/g, ' ');
    for (const key of toolrailSearchAttributes) {
      expect(register, key.name).toContain(`--name ${key.name} --type`);
      expect(readme, key.name).toContain(`\`${key.name}\``);
    }
    expect(register).toContain(
      `register the ${['zero', 'one', 'two', 'three', 'four', 'five', 'six'][toolrailSearchAttributes.length]} search attributes`,
    );
  });
});
