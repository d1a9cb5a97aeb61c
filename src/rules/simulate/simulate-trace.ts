import type { CompiledRuleSet } from '../compiled-rule-set';
import { approvalDeniedReason } from '../engine/approval-denied-reason';
import { beginTurn } from '../engine/begin-turn';
import { checkEnd } from '../engine/check-end';
import { endRun } from '../engine/end-run';
import { initialRuleState } from '../engine/initial-rule-state';
import { narrow } from '../engine/narrow';
import { record } from '../engine/record';
import { startRun } from '../engine/start-run';
import { validate } from '../engine/validate';
import type { Reason } from '../reason';
import type { RuleState } from '../rule-state';
import type { Trace } from './trace-schema';

/** The verdict on one call of a `calls` event. */
export interface SimulatedCall {
  readonly tool: string;
  readonly verdict: 'allowed' | 'blocked';
  readonly reasons: Reason[];
  /** Present (true) when the tool needs a human's approval. */
  readonly requiresApproval?: true;
}

/** One output line of `toolrail simulate`, per trace event, in order. */
export type SimulationLine =
  | { readonly event: number; readonly type: 'user'; readonly run: number }
  | {
      readonly event: number;
      readonly type: 'calls';
      readonly visible: string[];
      readonly ended?: 'no_tool_allowed';
      readonly calls: SimulatedCall[];
    }
  | {
      readonly event: number;
      readonly type: 'text';
      readonly visible: string[];
      readonly ended?: 'no_tool_allowed';
      readonly endsRun: boolean;
      readonly reasons: Reason[];
    };

/** The simulation's lines and the final rule state. */
export interface SimulationResult {
  readonly lines: SimulationLine[];
  readonly state: RuleState;
}

/**
 * Runs a recorded trace through the rule engine, exactly as the session workflow would: each `user`
 * event starts a run, each `calls` or `text` event is one turn (narrow, then validate and record the
 * calls in order), and a text answer ends the run only when `checkEnd` accepts it.
 */
export function simulateTrace(rules: CompiledRuleSet, trace: Trace): SimulationResult {
  const catalog = trace.tools;
  let state = initialRuleState(rules);
  let started = false;
  const lines: SimulationLine[] = [];
  trace.events.forEach((event, index) => {
    if ('user' in event) {
      state = startRun(rules, state, { userMessage: event.user });
      started = true;
      lines.push({ event: index, type: 'user', run: state.run });
      return;
    }
    if (!started) {
      state = startRun(rules, state, { userMessage: '' });
      started = true;
    }
    state = beginTurn(rules, state);
    const narrowed = narrow(rules, state, catalog);
    if (narrowed.ended !== undefined) state = endRun(state, narrowed.ended);
    const ended = narrowed.ended !== undefined ? { ended: narrowed.ended } : {};
    if ('text' in event) {
      const verdict = checkEnd(rules, state);
      if (verdict.endsRun) state = endRun(state, 'answered');
      lines.push({
        event: index,
        type: 'text',
        visible: narrowed.visible,
        ...ended,
        endsRun: verdict.endsRun,
        reasons: verdict.reasons,
      });
      return;
    }
    const calls: SimulatedCall[] = event.calls.map((call) => {
      const args = call.args ?? {};
      const verdict = validate(rules, state, { tool: call.tool, args }, catalog);
      const approval = verdict.requiresApproval ? { requiresApproval: true as const } : {};
      if (verdict.verdict === 'blocked') return { tool: call.tool, verdict: 'blocked', reasons: verdict.reasons };
      if (verdict.requiresApproval && call.approved === false) {
        return { tool: call.tool, verdict: 'blocked', reasons: [approvalDeniedReason(rules, call.tool)], ...approval };
      }
      state = record(rules, state, { tool: call.tool, args, result: call.result ?? null, error: call.error ?? false });
      return { tool: call.tool, verdict: 'allowed', reasons: [], ...approval };
    });
    lines.push({ event: index, type: 'calls', visible: narrowed.visible, ...ended, calls });
  });
  return { lines, state };
}
