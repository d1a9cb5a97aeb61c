import { formatMappingsOf } from '../kinds/format-mappings-of';
import { RuleFormat } from '../rule-format';
import { ImportContext } from './import-context';
import type { ImportResult } from './import-result';
import { isRecord } from './is-record';
import { own } from './own-property';
import type { ParsedSource, ValuePath } from './source-locator';

function stepsOf(value: unknown): { steps: unknown; at: ValuePath } {
  if (isRecord(value) && Array.isArray(own(value, 'steps'))) return { steps: own(value, 'steps'), at: ['steps'] };
  const orchestration = isRecord(value) ? own(value, 'orchestration') : undefined;
  if (isRecord(orchestration)) return { steps: own(orchestration, 'steps'), at: ['orchestration', 'steps'] };
  return { steps: undefined, at: [] };
}

/**
 * Imports an AgentDock orchestration config (`{steps: [...]}`, or an agent template holding it under
 * `orchestration`); each step is mapped by the kind that maps AgentDock steps (`step`). What its
 * documentation describes is built: globs in `availableTools`, allowed AND NOT denied, message
 * conditions, and sequence positions that list alternatives.
 */
export function importAgentDock(source: ParsedSource): ImportResult {
  const context = new ImportContext(source, RuleFormat.agentdock);
  const { steps, at } = stepsOf(source.value);
  if (!Array.isArray(steps)) {
    context.report(
      'error',
      'invalid-file',
      at,
      'expected an orchestration config with a "steps" list',
      'write {"steps": [{"name": ..., ...}]}',
    );
    return context.finish();
  }
  const mappings = formatMappingsOf('agentdock');
  steps.forEach((step: unknown, index) => {
    const stepAt: ValuePath = [...at, index];
    if (!isRecord(step)) {
      context.report(
        'error',
        'invalid-rule',
        stepAt,
        'a step must be an object',
        'write {"name": ..., "conditions": [...], "availableTools": {...}}',
      );
      return;
    }
    for (const { mapping } of mappings) {
      const mapped = mapping(step, stepAt, context);
      if (mapped !== null) context.addMapped(mapped, { at: stepAt, index });
    }
  });
  return context.finish();
}
