/**
 * Where each kind's reasons come in a list of reasons (docs/rules.md, "Reason order"): lower first,
 * then by rule position. A new kind picks a number between those it should follow and precede.
 */
export const reasonOrder = {
  /** A shadow terminal rule would have ended the run. */
  runEnded: 0,
  forbidden: 10,
  init: 20,
  /** `child` and `parent` rules on the last completed tool. */
  afterLast: 30,
  /** `conditional` rules on the last completed tool. */
  afterLastOutput: 35,
  /** A `parent` rule's children outside the moment right after it. */
  parent: 40,
  sequence: 50,
  step: 60,
  requires: 70,
  precondition: 80,
  maxCount: 90,
  default: 100,
} as const;

/** Where each kind's reasons against ending a run come (docs/rules.md): lower first, then by rule position. */
export const endReasonOrder = {
  continue: 10,
  /** `child` and `parent` rules on the last completed tool. */
  afterLast: 20,
  afterLastOutput: 30,
  requiredBeforeExit: 40,
} as const;
