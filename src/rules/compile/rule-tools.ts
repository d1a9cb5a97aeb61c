import type { CompiledRule } from '../compiled-rule-set';
import { positionTools } from '../engine/rule-index';

/** Every tool name a rule mentions (globs included), with the field that mentions it. */
export function ruleTools(rule: CompiledRule): { tool: string; field: string }[] {
  const out: { tool: string; field: string }[] = [];
  const add = (tools: readonly string[], field: string): void => {
    for (const tool of tools) out.push({ tool, field });
  };
  if ('tool' in rule) add([rule.tool], 'tool');
  switch (rule.kind) {
    case 'requires':
      add(rule.after, 'after');
      break;
    case 'forbids_after':
      add(rule.forbids, 'forbids');
      break;
    case 'precondition':
      if (rule.requires_prior_tool !== undefined) add([rule.requires_prior_tool], 'requires_prior_tool');
      break;
    case 'sequence':
      for (const position of rule.positions) add(positionTools(position), 'positions');
      break;
    case 'step':
      add(rule.allowed ?? [], 'allowed');
      add(rule.denied ?? [], 'denied');
      for (const position of rule.sequence ?? []) add(positionTools(position), 'sequence');
      for (const condition of rule.conditions) {
        if (condition.type === 'tool_used' && condition.value !== undefined) add([condition.value], 'conditions');
      }
      break;
    case 'child':
    case 'parent':
      add(rule.children, 'children');
      break;
    case 'conditional':
      add(
        rule.mapping.map((entry) => entry.child),
        'mapping',
      );
      if (rule.default_child !== undefined) add([rule.default_child], 'default_child');
      break;
    case 'default':
      add(rule.known ?? [], 'known');
      break;
    default:
      break;
  }
  return out;
}
