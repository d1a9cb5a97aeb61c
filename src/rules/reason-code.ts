/**
 * Why a tool is hidden, a call refused, or a text answer not accepted. These strings are stable: they
 * end up in Temporal histories and in `toolrail simulate` output.
 */
export const ReasonCode = {
  prerequisiteNotMet: 'prerequisite_not_met',
  forbiddenAfter: 'forbidden_after',
  maxCountReached: 'max_count_reached',
  preconditionNotMet: 'precondition_not_met',
  outputConditionFailed: 'output_condition_failed',
  resourceMismatch: 'resource_mismatch',
  stepCountTooLow: 'step_count_too_low',
  sequenceExpected: 'sequence_expected',
  notInStep: 'not_in_step',
  initRequired: 'init_required',
  childRequired: 'child_required',
  parentRequired: 'parent_required',
  runEnded: 'run_ended',
  continueRequired: 'continue_required',
  requiredBeforeExit: 'required_before_exit',
  approvalDenied: 'approval_denied',
  unruledToolBlocked: 'unruled_tool_blocked',
  unknownTool: 'unknown_tool',
  noToolAllowed: 'no_tool_allowed',
  turnLimit: 'turn_limit',
} as const;

/** One of the {@link ReasonCode} strings. */
export type ReasonCode = (typeof ReasonCode)[keyof typeof ReasonCode];
