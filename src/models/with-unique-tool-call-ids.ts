import type { ProposedToolCall } from './conversation-message';

/**
 * Gives every call a non-empty id unique within the response: a missing, empty or repeated
 * provider id (some OpenAI-compatible servers send them) becomes `call_<turn>_<index>`.
 */
export function withUniqueToolCallIds(calls: ProposedToolCall[], turn: number): ProposedToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, index) => {
    const id = call.id !== '' && !seen.has(call.id) ? call.id : fallbackToolCallId(turn, index);
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/** The deterministic id of the `index`th call of model turn `turn`. */
export function fallbackToolCallId(turn: number, index: number): string {
  return `call_${turn}_${index}`;
}
