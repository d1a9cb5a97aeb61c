import type { Reason } from '../reason';
import { builtinRuleRef } from '../rule-ref';
import { makeReason } from './make-reason';

/** `unknown_tool` when the tool is not in the catalog. */
export function unknownToolReason(tool: string, catalog: readonly string[]): Reason {
  const names = catalog.length > 12 ? `${catalog.slice(0, 12).join(', ')}, …` : catalog.join(', ');
  return makeReason(
    'unknown_tool',
    builtinRuleRef('catalog'),
    `There is no tool named ${JSON.stringify(tool)}. Use one of the tools offered${names ? `: ${names}` : ''}.`,
  );
}
