import { record } from '../src/rules';
import type { CompiledRuleSet, RuleState } from '../src/rules';
import { readRevealedTools } from '../src/dispatch';
import type { DispatchedCall, SessionCatalog, SessionCounters, TurnInProgress } from '../src/session';

/** What recording a call changes of the session's state (`SessionState` has it all). */
export interface RecordingState {
  readonly rules: CompiledRuleSet;
  ruleState: RuleState;
  readonly turn: TurnInProgress | undefined;
  counters: SessionCounters;
  lastTool: string | null;
  revealedTools: readonly string[];
  catalog: SessionCatalog;
}

/**
 * A call that ran: the engine advances on its outcome (failures count as attempts but satisfy
 * nothing); counters, the last tool and revealed deferred tools follow (the catalog lacks those:
 * its version is cleared, so the next turn looks it up again). Part of `applyEvent`.
 */
export function recordCall(s: RecordingState, { outcome }: DispatchedCall): void {
  const call = s.turn?.remaining.find((remaining) => remaining.callId === outcome.callId);
  const prepared = call?.type === 'prepared-call' ? call : undefined;
  s.ruleState = record(s.rules, s.ruleState, {
    tool: prepared?.toolName ?? outcome.toolName,
    args: prepared?.input ?? null,
    result: outcome.type === 'tool-result' ? outcome.output : null,
    error: outcome.type === 'tool-error',
  });
  s.counters.toolCalls += 1;
  s.lastTool = outcome.toolName;
  const revealed = readRevealedTools(outcome).filter((name) => !s.revealedTools.includes(name));
  if (revealed.length === 0) return;
  s.revealedTools = [...s.revealedTools, ...revealed];
  s.catalog = { ...s.catalog, version: '' };
}
