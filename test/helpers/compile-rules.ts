import { parse } from 'yaml';
import { compileRuleSet, formatDiagnostic, importRules } from '../../src/rules';
import type { CompiledRuleSet, RuleSettings } from '../../src/rules';

/**
 * Compiles rules given inline (any format `importRules` recognises), with `settings` overriding the
 * document's (`compileRuleSet`'s `options`); throws with every diagnostic on error.
 */
export function compileRules(
  value: unknown,
  {
    file = 'inline.yaml',
    catalog,
    settings,
  }: { file?: string; catalog?: readonly string[]; settings?: RuleSettings } = {},
): CompiledRuleSet {
  const imported = importRules({ file, value: typeof value === 'string' ? (parse(value) as unknown) : value });
  if (!imported.ok) throw new Error(imported.errors.map(formatDiagnostic).join('\n'));
  const compiled = compileRuleSet({
    documents: [imported.document],
    ...(catalog ? { catalog } : {}),
    ...(settings ? { options: settings } : {}),
  });
  if (!compiled.ok) throw new Error(compiled.errors.map(formatDiagnostic).join('\n'));
  return compiled.rules;
}
