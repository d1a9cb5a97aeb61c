import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionInputJsonSchema, sessionInputSchemaFile } from '../../../src/session';

const file = path.resolve(__dirname, '../../..', sessionInputSchemaFile);

describe('the session input JSON Schema the package ships', () => {
  it('is the zod schema the workflow checks the input with (`npm run schema` writes it)', () => {
    const generated = `${JSON.stringify(sessionInputJsonSchema(), null, 2)}\n`;
    if (process.env.TOOLRAIL_WRITE_SCHEMA === '1') writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8'), `${sessionInputSchemaFile} is out of date: run \`npm run schema\``).toBe(
      generated,
    );
  });
});
