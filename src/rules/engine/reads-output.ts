import type { CompiledRuleSet } from '../compiled-rule-set';
import { ruleIndex } from './rule-index';

/**
 * Whether recording a call of `tool` reads its result: a `conditional` on the tool picks its next
 * tool by the output, or a `precondition` captures the tool's output. The session keeps the whole
 * output of such calls for the rules; of the others it keeps a preview (the model still reads the
 * whole output, from the content store).
 */
export function readsOutput(rules: CompiledRuleSet, tool: string): boolean {
  return ruleIndex(rules).outputReaders.has(tool);
}
