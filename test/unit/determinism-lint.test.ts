import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintAs, repositoryRoot as root } from '../helpers/lint-as';

// Type-aware ESLint builds a TypeScript program first: allow it time on a loaded machine.
describe('the determinism lint', { timeout: 120_000 }, () => {
  it('refuses node:fs in a file under workflows/', async () => {
    const rules = await lintAs(
      'workflows/agent-session.ts',
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
    );
    expect(rules).toContain('no-restricted-imports');
  });

  it('refuses a bare built-in, the clock and randomness in src/rules/', async () => {
    const code = "import os from 'os';\nexport const x = [os.EOL, Date.now(), Math.random(), new Date()];\n";
    const rules = await lintAs('src/session/search-attributes.ts', code);
    expect(rules.filter((rule) => rule === 'no-restricted-imports')).toHaveLength(1);
    expect(rules.filter((rule) => rule === 'no-restricted-properties')).toHaveLength(2);
    expect(rules).toContain('no-restricted-syntax');
  });

  it('refuses the clock and randomness in a file under workflows/', async () => {
    const code = 'export const x = [Date.now(), Math.random(), new Date()];\n';
    const rules = await lintAs('workflows/turn.ts', code);
    expect(rules.filter((rule) => rule === 'no-restricted-properties')).toHaveLength(2);
    expect(rules).toContain('no-restricted-syntax');
  });

  it('allows a dated Date and the one clock helper of workflows/', async () => {
    expect(await lintAs('workflows/turn.ts', 'export const x = new Date(0);\n')).toEqual([]);
    expect(
      await lintAs('workflows/workflow-now.ts', readFileSync(path.join(root, 'workflows/workflow-now.ts'), 'utf8')),
    ).toEqual([]);
  });

  it('allows node:fs outside the deterministic folders', async () => {
    const rules = await lintAs(
      'src/devserver/cache-dir.ts',
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
    );
    expect(rules).not.toContain('no-restricted-imports');
  });
});
