import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolrailSearchAttributes } from '../../../src/session/search-attributes';

const production = readFileSync(path.resolve(__dirname, '../../../docs/production.md'), 'utf8');
const sessions = readFileSync(path.resolve(__dirname, '../../../docs/sessions.md'), 'utf8');

describe('the search attributes in the docs', () => {
  it('name every search attribute toolrail sets, where they say what to register and what each holds', () => {
    const register = production.slice(production.indexOf('register the')).replace(/\s+/g, ' ');
    for (const key of toolrailSearchAttributes) {
      expect(register, key.name).toContain(`--name ${key.name} --type`);
      expect(sessions, key.name).toContain(`\`${key.name}\``);
    }
    expect(register).toContain(
      `register the ${['zero', 'one', 'two', 'three', 'four', 'five', 'six'][toolrailSearchAttributes.length]} search attributes`,
    );
  });
});
