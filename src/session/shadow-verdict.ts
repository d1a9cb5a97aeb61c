import { previewOf } from '../text';
import type { Reason } from '../rules';

/**
 * What shadow rules (`enforcement: shadow`) would have done at one step of a session had they been
 * enforced, with their reasons (`R`: as the rule engine gives them in the session's events, as
 * {@link ShadowReasonView} in the live feed and the transcript). Nothing of it was done: the tools stay
 * visible, the calls run, the answer ends the run. Plain JSON.
 */
export type ShadowVerdict<R = Reason> =
  /**
   * The turn's narrowing: visible tools they would hide, sorted by name, each with their reasons;
   * `ended`: hiding them would leave the model no tool, which ends the run.
   */
  | { kind: 'hidden'; tools: { tool: string; reasons: R[] }[]; ended?: 'no_tool_allowed' }
  /** A call the rules allowed that they would have refused. */
  | { kind: 'refused'; callId: string; tool: string; reasons: R[] }
  /**
   * A call the rules allowed without a human that a shadow `requires_approval` rule would have put up
   * for approval (the engine gives no reasons for it: `reasons` is empty).
   */
  | { kind: 'approval'; callId: string; tool: string; reasons: R[] }
  /** A text answer that ended the run which they would have refused (the run would have gone on). */
  | { kind: 'end'; reasons: R[] };

/** What shadow rules said of one step: `hidden`, `refused`, `approval` or `end`. */
export type ShadowVerdictKind = ShadowVerdict['kind'];

/**
 * A shadow rule's reason as the live feed and the transcript show it: the engine's code, message
 * and `callFirst`, and `rule`, the id of the rule that gave it (its `id`, or `FILE#PATH`).
 */
export interface ShadowReasonView {
  code: string;
  message: string;
  callFirst?: readonly string[];
  rule: string;
}

/** Most characters of a reason's message in a {@link ShadowReasonView}. */
const maxMessageChars = 1_000;

/** A shadow verdict with its reasons as {@link ShadowReasonView}s, and at most `maxTools` of its hidden tools. */
export function shadowVerdictView(verdict: ShadowVerdict, maxTools = Infinity): ShadowVerdict<ShadowReasonView> {
  switch (verdict.kind) {
    case 'hidden':
      return {
        kind: 'hidden',
        tools: verdict.tools.slice(0, maxTools).map(({ tool, reasons }) => ({
          tool,
          reasons: reasons.map(shadowReasonView),
        })),
        ...(verdict.ended === undefined ? {} : { ended: verdict.ended }),
      };
    case 'refused':
    case 'approval': {
      const { kind, callId, tool } = verdict;
      return { kind, callId, tool, reasons: verdict.reasons.map(shadowReasonView) };
    }
    case 'end':
      return { kind: 'end', reasons: verdict.reasons.map(shadowReasonView) };
  }
}

function shadowReasonView({ code, message, callFirst, rule }: Reason): ShadowReasonView {
  return { code, message: previewOf(message, maxMessageChars), ...(callFirst ? { callFirst } : {}), rule: rule.id };
}
