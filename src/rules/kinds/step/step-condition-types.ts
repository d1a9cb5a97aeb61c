/** The conditions a step may have. */
export const stepConditionTypes = [
  'message_regex',
  'message_contains',
  'message_starts_with',
  'tool_used',
  'sequence_match',
] as const;
