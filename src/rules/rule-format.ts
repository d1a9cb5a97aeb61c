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

/** The formats other systems define, each mapped to toolrail's rule kinds by the kinds themselves. */
export type NativeRuleFormat = Exclude<RuleFormat, 'toolrail'>;
