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
  /**
   * For an allowed call: the reasons shadow rules would have refused it with if they were enforced
   * (with `approval_denied` when a shadow approval was refused). Absent when there are none.
   */
  readonly shadowRefused?: Reason[];
  /** Present (true) when a shadow `requires_approval` rule would have made the call wait for a human. */
  readonly shadowRequiresApproval?: true;
}

/** What shadow rules would have hidden or ended at a turn: present only when they would have. */
interface ShadowNarrowing {
  /** Visible tools shadow rules would hide if they were enforced, sorted by name. */
  readonly shadowHidden?: string[];
  readonly shadowEnded?: 'no_tool_allowed';
}

/** One output line of `toolrail simulate`, per trace event, in order. */
export type SimulationLine =
  | { readonly event: number; readonly type: 'user'; readonly run: number }
  | ({
      readonly event: number;
      readonly type: 'calls';
      readonly visible: string[];
      readonly ended?: 'no_tool_allowed';
      readonly calls: SimulatedCall[];
    } & ShadowNarrowing)
  | ({
      readonly event: number;
      readonly type: 'text';
      readonly visible: string[];
      readonly ended?: 'no_tool_allowed';
      readonly endsRun: boolean;
      readonly reasons: Reason[];
      /** When the answer ends the run: the reasons shadow rules would have refused it with. */
      readonly shadowRefused?: Reason[];
    } & ShadowNarrowing);

/** The simulation's lines and the final rule state. */
export interface SimulationResult {
  readonly lines: SimulationLine[];
  readonly state: RuleState;
}

/**
 * Runs a recorded trace through the rule engine, exactly as the session workflow would: each `user`
 * event starts a run, each `calls` or `text` event is one turn (narrow, then validate and record the
 * calls in order), and a text answer ends the run only when `checkEnd` accepts it. What shadow rules
 * would have hidden or refused shows in the `shadow…` fields, nothing of it enforced.
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
    const shadow: ShadowNarrowing = {
      ...(narrowed.shadowHidden !== undefined ? { shadowHidden: narrowed.shadowHidden.map(({ tool }) => tool) } : {}),
      ...(narrowed.shadowEnded !== undefined ? { shadowEnded: narrowed.shadowEnded } : {}),
    };
    if ('text' in event) {
      const verdict = checkEnd(rules, state);
      if (verdict.endsRun) state = endRun(state, 'answered');
      lines.push({
        event: index,
        type: 'text',
        visible: narrowed.visible,
        ...ended,
        ...shadow,
        endsRun: verdict.endsRun,
        reasons: verdict.reasons,
        ...(verdict.shadowRefused !== undefined ? { shadowRefused: verdict.shadowRefused } : {}),
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
      const refusedByShadowApproval =
        verdict.shadowRequiresApproval === true && call.approved === false
          ? [approvalDeniedReason(rules, call.tool)]
          : [];
      const shadowRefused = [...(verdict.shadowRefused ?? []), ...refusedByShadowApproval];
      return {
        tool: call.tool,
        verdict: 'allowed',
        reasons: [],
        ...approval,
        ...(shadowRefused.length > 0 ? { shadowRefused } : {}),
        ...(verdict.shadowRequiresApproval === true ? { shadowRequiresApproval: true as const } : {}),
      };
    });
    lines.push({ event: index, type: 'calls', visible: narrowed.visible, ...ended, ...shadow, calls });
  });
  return { lines, state };
}
