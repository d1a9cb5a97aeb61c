import { join } from 'node:path';
import type { CompiledRuleSet } from '../../../../src/rules/index';
import { formatDiagnostic } from '../../../../src/rules/index';
import { loadRuleSet } from '../../../../src/rules-files/index';

/** The path of a rules fixture. */
export function fixture(name: string): string {
  return join(__dirname, '..', '..', '..', 'fixtures', 'rules', name);
}

/** Loads and compiles fixture rules (files or contract directories), failing the test on errors. */
export async function loadFixtureRules(names: string[], catalog?: readonly string[]): Promise<CompiledRuleSet> {
  const result = await loadRuleSet({ paths: names.map(fixture), ...(catalog ? { catalog } : {}) });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}
