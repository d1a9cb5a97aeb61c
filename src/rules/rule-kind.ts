/** Every kind of rule of the unified model (see `docs/rules.md`). */
export const RuleKind = {
  requires: 'requires',
  forbidsAfter: 'forbids_after',
  maxCount: 'max_count',
  precondition: 'precondition',
  sequence: 'sequence',
  step: 'step',
  init: 'init',
  child: 'child',
  parent: 'parent',
  conditional: 'conditional',
  terminal: 'terminal',
  continue: 'continue',
  requiredBeforeExit: 'required_before_exit',
  requiresApproval: 'requires_approval',
  default: 'default',
} as const;

/** One of the {@link RuleKind} strings. */
export type RuleKind = (typeof RuleKind)[keyof typeof RuleKind];

/** The native formats a rules file may be written in, plus `toolrail`, the unified one. */
export const RuleFormat = {
  toolrail: 'toolrail',
  letta: 'letta',
  agentdock: 'agentdock',
  contracts: 'contracts',
  graph: 'graph',
} as const;

/** One of the {@link RuleFormat} strings. */
export type RuleFormat = (typeof RuleFormat)[keyof typeof RuleFormat];
