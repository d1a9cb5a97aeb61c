import { formatToolIssues } from './format-tool-issues';
import type { JsonValue } from './json-value';
import type { ToolResultMessage } from '../models';
import type { ToolOutcome } from './tool-outcome';

/**
 * The text the model reads for an outcome: a result's output (strings as they are, anything else as
 * compact JSON), an offload notice with the content-store key and preview, a notice that the call ran
 * but its whole output could not be stored, or `Error [CODE]: message` followed by the schema issues.
 * Whether it is an error is `outcome.type === 'tool-error'`.
 */
export function renderToolOutcome(outcome: ToolOutcome): string {
  if (outcome.type === 'tool-error') {
    const head = `Error [${outcome.code}]: ${outcome.message}`;
    return outcome.issues === undefined ? head : `${head}\n${formatToolIssues(outcome.issues)}`;
  }
  const text = renderOutput(outcome.output);
  if (outcome.fullSizeChars === undefined) return text;
  const size = groupDigits(outcome.fullSizeChars);
  const preview = `Preview (first ${groupDigits(text.length)} characters):\n${text}`;
  if (outcome.storeError !== undefined)
    return `${outcome.toolName} ran and returned ${size} characters, but its whole output could not be stored (${outcome.storeError}); only this preview is available. Do not run the call again to see the rest: it took effect.\n${preview}`;
  const where =
    outcome.offloadedTo === undefined
      ? 'the full output could not be saved, so only this preview is available'
      : `the full output is stored in this session's content store as ${outcome.offloadedTo}`;
  return `Output too large (${size} characters): ${where}.\n${preview}`;
}

function renderOutput(output: JsonValue): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/** `123456` → `123,456`, without Intl (this module runs in the workflow sandbox). */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The tool result message the model reads for an outcome (its text as {@link renderToolOutcome}
 * writes it), saying how its text holds the output (`json`, `offloaded`) so a reader gets the value back.
 */
export function toolResultMessage(outcome: ToolOutcome): ToolResultMessage {
  const message: ToolResultMessage = {
    role: 'tool',
    callId: outcome.callId,
    toolName: outcome.toolName,
    content: renderToolOutcome(outcome),
    isError: outcome.type === 'tool-error',
  };
  if (outcome.type === 'tool-error') return message;
  if (outcome.fullSizeChars !== undefined) {
    const preview = renderOutput(outcome.output);
    const key = outcome.storeError === undefined ? outcome.offloadedTo : undefined;
    return { ...message, offloaded: { preview, chars: outcome.fullSizeChars, ...(key === undefined ? {} : { key }) } };
  }
  return typeof outcome.output === 'string' ? message : { ...message, json: true };
}
