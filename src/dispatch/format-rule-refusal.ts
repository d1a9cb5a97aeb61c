/** One reason the rules gave, as the refusal lists it. */
export interface RefusalReason {
  readonly code: string;
  readonly message: string;
  /** Tools to call first, earliest first. */
  readonly callFirst?: readonly string[];
}

/**
 * The text a model reads when rules refuse its call: every reason's message, and the tools to call
 * first (earliest first) when a prerequisite is missing.
 */
export function formatRuleRefusal(toolName: string, reasons: readonly RefusalReason[]): string {
  const lines = [`The tool-use rules refused ${toolName}:`];
  for (const reason of reasons) lines.push(`- [${reason.code}] ${reason.message}`);
  const callFirst = [...new Set(reasons.flatMap((reason) => reason.callFirst ?? []))];
  if (callFirst.length > 0) lines.push(`Call first: ${callFirst.join(', ')}.`);
  return lines.join('\n');
}
