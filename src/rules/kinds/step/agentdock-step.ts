import { isRecord } from '../../formats/is-record';
import { own as property } from '../../formats/own-property';
import type { AgentDockMapping } from '../kind-formats';
import { stepConditionTypes } from './step-condition-types';

/**
 * One AgentDock step as a `step` rule: `availableTools.allowed/denied` as `allowed/denied`, `isDefault`
 * as `default`; an unknown condition type is an error at its place.
 */
export const agentDockStep: AgentDockMapping = (step, at, sink) => {
  const conditions = property(step, 'conditions') ?? [];
  if (Array.isArray(conditions)) {
    conditions.forEach((condition: unknown, c) => {
      const type = isRecord(condition) ? property(condition, 'type') : undefined;
      if (typeof type === 'string' && !(stepConditionTypes as readonly string[]).includes(type)) {
        sink.report(
          'error',
          'unknown-condition',
          [...at, 'conditions', c, 'type'],
          `unknown condition type ${JSON.stringify(type)}`,
          `use one of ${stepConditionTypes.join(', ')}`,
        );
      }
    });
  }
  const tools = property(step, 'availableTools');
  const body: Record<string, unknown> = {
    kind: 'step',
    name: property(step, 'name'),
    conditions,
    default: property(step, 'isDefault') ?? false,
  };
  if (isRecord(tools)) {
    if (property(tools, 'allowed') !== undefined) body['allowed'] = property(tools, 'allowed');
    if (property(tools, 'denied') !== undefined) body['denied'] = property(tools, 'denied');
  }
  if (property(step, 'sequence') !== undefined) body['sequence'] = property(step, 'sequence');
  if (typeof property(step, 'description') === 'string') body['description'] = property(step, 'description');
  return {
    body,
    fieldPath: (issue) => {
      const [first, ...rest] = issue;
      if (first === 'allowed' || first === 'denied') return [...at, 'availableTools', first, ...rest];
      if (first === 'default') return [...at, 'isDefault', ...rest];
      return first === undefined ? at : [...at, first, ...rest];
    },
  };
};
