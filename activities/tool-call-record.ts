import type { EncodedContent } from '../src/store';
import type { DispatchedCall } from '../src/session';

/**
 * Name of the record of one call in its session's content store: the call's idempotency key
 * (`<session>/<turn>/<call id>`) without the session, which is the store's namespace already.
 */
export function toolCallRecordName(turn: number, callId: string): string {
  return `tool-call/${turn}/${callId}`;
}

/** What a record holds: what the tool activity returned (or would have) to the workflow, whole. */
interface ToolCallRecord {
  executed: DispatchedCall;
}

/**
 * Writes the record of a call that ran, before its activity returns: should the completion never
 * reach the Temporal server, the workflow still finds the call's outcome here. Write-once: a record
 * already there is kept.
 */
export async function writeToolCallRecord(
  content: EncodedContent,
  { sessionId, turn, executed }: { sessionId: string; turn: number; executed: DispatchedCall },
): Promise<void> {
  const record: ToolCallRecord = { executed };
  await content.putRecord(
    sessionId,
    toolCallRecordName(turn, executed.outcome.callId),
    new TextEncoder().encode(JSON.stringify(record)),
  );
}

/** The record of a call, or `undefined` when none was written; throws when one is there but unreadable. */
export async function readToolCallRecord(
  content: EncodedContent,
  { sessionId, turn, callId }: { sessionId: string; turn: number; callId: string },
): Promise<DispatchedCall | undefined> {
  const name = toolCallRecordName(turn, callId);
  const bytes = await content.getRecord(sessionId, name);
  if (bytes === undefined) return undefined;
  const record = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ToolCallRecord> | null;
  const executed = record?.executed;
  const type = executed?.outcome?.type;
  if (executed === undefined || (type !== 'tool-result' && type !== 'tool-error') || executed.outcome.callId !== callId)
    throw new Error(
      `the record ${name} of session ${JSON.stringify(sessionId)} in ${content.store.description} is not a call's outcome`,
    );
  return executed;
}
