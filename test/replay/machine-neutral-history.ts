import os from 'node:os';
import path from 'node:path';
import type { JsonHistory } from '../helpers/run-chain';

/** What stands for the checkout's root in a recorded history. */
export const checkoutPlaceholder = '<checkout>';
/** What stands for the temporary directory in a recorded history. */
export const scratchPlaceholder = '<scratch>';

const checkoutRoot = path.resolve(__dirname, '../..');

/**
 * A recorded history with nothing of the machine that recorded it: the checkout's root and the
 * temporary directory become placeholders in every string (JSON payloads included), and failures
 * lose their stack traces. Replay reads neither: it compares the workflow's commands with the events.
 *
 * 1. Walk the history; a `stackTrace` becomes empty, a string has the paths replaced.
 * 2. A payload whose encoding is `json/plain` is decoded, has the paths replaced, and is encoded again.
 */
export function machineNeutralHistory(history: JsonHistory): JsonHistory {
  return neutral(history) as JsonHistory;
}

function neutral(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return key === 'stackTrace' ? '' : withoutMachinePaths(value);
  if (Array.isArray(value)) return value.map((item) => neutral(item));
  if (typeof value !== 'object' || value === null) return value;
  if (isJsonPayload(value)) return { ...value, data: encode(withoutMachinePaths(decode(value.data))) };
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, neutral(item, name)]));
}

/** A payload in Temporal's JSON form whose data is JSON text. */
function isJsonPayload(value: object): value is { metadata: { encoding: string }; data: string } {
  const { metadata, data } = value as { metadata?: { encoding?: unknown }; data?: unknown };
  return (
    typeof data === 'string' && typeof metadata?.encoding === 'string' && decode(metadata.encoding) === 'json/plain'
  );
}

function withoutMachinePaths(text: string): string {
  return text.replaceAll(checkoutRoot, checkoutPlaceholder).replaceAll(os.tmpdir(), scratchPlaceholder);
}

function decode(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}

function encode(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
