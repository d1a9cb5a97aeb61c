import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** The TypeScript files under `folder` (relative to the repository), recursively. */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name));
}

describe('the comments of the source', () => {
  it('keep every comment line of src/, workflows/ and activities/ within the 120-column print width', () => {
    const over = ['src', 'workflows', 'activities'].flatMap(sourceFiles).flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /^\s*(\/\/|\/\*\*|\*)/.test(line) && [...line].length > 120 ? [`${file}:${index + 1}`] : [],
        ),
    );
    expect(over).toEqual([]);
  });
});
