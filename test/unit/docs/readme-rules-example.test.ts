import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileRuleSet, formatDiagnostic, importRules } from '../../../src/rules';

const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');

describe("the README's unified rules example", () => {
  it('compiles without errors or warnings and shows every rule kind', () => {
    const block = /```yaml\n(toolrail: 1[\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README has a ```yaml block starting with toolrail: 1').toBeDefined();
    const imported = importRules({ file: 'README.md', value: parse(block ?? '') as unknown });
    if (!imported.ok) throw new Error(imported.errors.map(formatDiagnostic).join('\n'));
    const compiled = compileRuleSet({ documents: [imported.document] });
    if (!compiled.ok) throw new Error(compiled.errors.map(formatDiagnostic).join('\n'));
    expect(compiled.warnings.map(formatDiagnostic)).toEqual([]);
    const kinds = new Set(compiled.rules.rules.map((rule) => rule.kind));
    for (const kind of [
      'requires',
      'forbids_after',
      'max_count',
      'precondition',
      'sequence',
      'step',
      'init',
      'child',
      'parent',
      'conditional',
      'terminal',
      'continue',
      'required_before_exit',
      'requires_approval',
    ]) {
      expect(kinds.has(kind as never), `an example of ${kind}`).toBe(true);
    }
  });
});
