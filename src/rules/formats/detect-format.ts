import { RuleFormat } from '../rule-format';
import { graphSections, isPerToolGraph } from './import-tool-graph';
import { isRecord } from './is-record';
import { own } from './own-property';

/**
 * Recognises a native format by content: a list of `{type, tool_name}` or `tool_rules` (Letta);
 * `toolrail` or `rules` (unified); `steps` or `orchestration.steps` (AgentDock); `tool` with
 * `preconditions`/`forbids_after` (one contract); `requires`/`needs_any`/`forbid_after` maps
 * (agent-tool-graph). `null` when nothing fits.
 */
export function detectFormat(value: unknown): RuleFormat | null {
  if (Array.isArray(value)) {
    const looksLetta =
      value.length === 0 || value.every((entry) => isRecord(entry) && 'type' in entry && 'tool_name' in entry);
    return looksLetta ? RuleFormat.letta : null;
  }
  if (!isRecord(value)) return null;
  if (Object.hasOwn(value, 'tool_rules')) return RuleFormat.letta;
  if (Object.hasOwn(value, 'toolrail') || Array.isArray(own(value, 'rules'))) return RuleFormat.toolrail;
  const orchestration = own(value, 'orchestration');
  if (Array.isArray(own(value, 'steps')) || (isRecord(orchestration) && Array.isArray(own(orchestration, 'steps')))) {
    return RuleFormat.agentdock;
  }
  if (typeof own(value, 'tool') === 'string') return RuleFormat.contracts;
  if (graphSections().some(({ section }) => isRecord(own(value, section)))) return RuleFormat.graph;
  if (isPerToolGraph(value)) return RuleFormat.graph;
  return null;
}
