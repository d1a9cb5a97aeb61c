/** A call's outcome as a step's content reports it. */
export interface OutcomePart {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly result: unknown;
  readonly error: boolean;
}

/** A part of a step's content as a call's outcome (`tool-result` or `tool-error`), or `undefined` for other parts. */
export function outcomePart(part: object): OutcomePart | undefined {
  const fields = part as Record<string, unknown>;
  if (fields['type'] !== 'tool-result' && fields['type'] !== 'tool-error') return undefined;
  if (typeof fields['toolName'] !== 'string' || typeof fields['toolCallId'] !== 'string') return undefined;
  const error = fields['type'] === 'tool-error';
  const { toolCallId: callId, toolName: tool, input: args } = fields;
  return { callId, tool, args, result: error ? null : fields['output'], error };
}
