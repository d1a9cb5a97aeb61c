import type { KindReasonCode } from './rule-kind-types';

/**
 * The reason codes that come from the runtime rather than from one kind of rule. With the codes each
 * kind declares, they make `ReasonCode`. These strings are stable: they end up in Temporal histories
 * and in `toolrail simulate` output.
 */
export const builtinReasonCodes = {
  runEnded: 'run_ended',
  approvalDenied: 'approval_denied',
  unknownTool: 'unknown_tool',
  noToolAllowed: 'no_tool_allowed',
  turnLimit: 'turn_limit',
} as const;

/** Why a tool is hidden, a call refused, or a text answer not accepted: a built-in code or a kind's. */
export type ReasonCode = (typeof builtinReasonCodes)[keyof typeof builtinReasonCodes] | KindReasonCode;
