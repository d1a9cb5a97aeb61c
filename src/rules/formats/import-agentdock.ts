import { RuleFormat } from '../rule-kind';
import { ImportContext, isRecord, own } from './import-context';
import type { ImportResult } from './import-result';
import type { ParsedSource, ValuePath } from './source-locator';

const conditionTypes = ['message_regex', 'message_contains', 'message_starts_with', 'tool_used', 'sequence_match'];

function stepsOf(value: unknown): { steps: unknown; at: ValuePath } {
  if (isRecord(value) && Array.isArray(own(value, 'steps'))) return { steps: own(value, 'steps'), at: ['steps'] };
  const orchestration = isRecord(value) ? own(value, 'orchestration') : undefined;
  if (isRecord(orchestration)) return { steps: own(orchestration, 'steps'), at: ['orchestration', 'steps'] };
  return { steps: undefined, at: [] };
}

/**
 * Imports an AgentDock orchestration config (`{steps: [...]}`, or an agent template holding it under
 * `orchestration`). What its documentation describes is built: globs in `availableTools`, allowed AND
 * NOT denied, message conditions, and sequence positions that list alternatives.
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
  steps.forEach((step, i) => {
    const stepAt: ValuePath = [...at, i];
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
    const conditions = own(step, 'conditions') ?? [];
    if (Array.isArray(conditions)) {
      conditions.forEach((condition, c) => {
        const type = isRecord(condition) ? own(condition, 'type') : undefined;
        if (typeof type === 'string' && !conditionTypes.includes(type)) {
          context.report(
            'error',
            'unknown-condition',
            [...stepAt, 'conditions', c, 'type'],
            `unknown condition type ${JSON.stringify(type)}`,
            `use one of ${conditionTypes.join(', ')}`,
          );
        }
      });
    }
    const tools = own(step, 'availableTools');
    const body: Record<string, unknown> = {
      kind: 'step',
      name: own(step, 'name'),
      conditions,
      default: own(step, 'isDefault') ?? false,
    };
    if (isRecord(tools)) {
      if (own(tools, 'allowed') !== undefined) body['allowed'] = own(tools, 'allowed');
      if (own(tools, 'denied') !== undefined) body['denied'] = own(tools, 'denied');
    }
    if (own(step, 'sequence') !== undefined) body['sequence'] = own(step, 'sequence');
    if (typeof own(step, 'description') === 'string') body['description'] = own(step, 'description');
    context.addRule(body, {
      at: stepAt,
      index: i,
      fieldPath: (issue) => {
        const [first, ...rest] = issue;
        if (first === 'allowed' || first === 'denied') return [...stepAt, 'availableTools', first, ...rest];
        if (first === 'default') return [...stepAt, 'isDefault', ...rest];
        return first === undefined ? stepAt : [...stepAt, first, ...rest];
      },
    });
  });
  return context.finish();
}
