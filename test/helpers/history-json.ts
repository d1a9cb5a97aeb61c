import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { History } from '@temporalio/common/lib/proto-utils';

// The SDK's helpers need @temporalio/common and @temporalio/proto to share one protobufjs: toolrail's
// peer dependency on protobufjs 8 makes npm install a single copy for both, here as in every app.

/** A history as a JSON value in Temporal's JSON form (`temporal workflow show --output json`). */
export function historyToJsonValue(history: History): unknown {
  return JSON.parse(historyToJSON(history)) as unknown;
}

/** A history as pretty-printed JSON text in Temporal's JSON form (what the replay files hold). */
export function historyToJsonText(history: History): string {
  return `${JSON.stringify(historyToJsonValue(history), null, 2)}\n`;
}

/** Decodes a history in Temporal's JSON form. */
export function historyFromJsonValue(json: unknown): History {
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { events?: unknown }).events)) {
    throw new TypeError('a history must be an object with an array of events');
  }
  return historyFromJSON(json);
}
