import { Context } from '@temporalio/activity';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';
import { previewOf } from '../src/text';
import { approveToolCallUpdate } from '../src/session';
import { decodeMessage, textOf } from '../src/conversation';
import { encodedContent } from '../src/store';
import type { ContentRef, ContentStore } from '../src/store';

/** Input of `decideSessionToolCall`: a decision on a call a child session waits on. */
export interface DecideSessionToolCallInput {
  sessionId: string;
  callId: string;
  approved: boolean;
  reason?: string;
}

/** What the session answered: the decision it took, or why it refused it (an unknown or decided call). */
export type DecidedSessionToolCall =
  { callId: string; decision: 'approved' | 'denied' } | { callId: string; refused: string };

/** Input of `readSessionText`: a stored message of a session. */
export interface ReadSessionTextInput {
  sessionId: string;
  message: ContentRef;
}

/** The activities a parent workflow's child sessions use (`toolrail/workflow`), registered by toolrail's plugin. */
export interface ChildSessionActivities {
  /**
   * Sends a child session the `approveToolCall` update (a workflow cannot send updates): through
   * the worker's client, once per decision (a retry of the activity is the same update).
   */
  decideSessionToolCall(input: DecideSessionToolCallInput): Promise<DecidedSessionToolCall>;
  /** The whole text of a session's stored message (e.g. its answer), through the worker's payload codecs. */
  readSessionText(input: ReadSessionTextInput): Promise<string>;
}

/**
 * Builds {@link ChildSessionActivities} over the worker's content store and payload codecs (read as
 * they are filled).
 */
export function createChildSessionActivities({
  store,
  payloadCodecs,
  namespace,
}: {
  store: ContentStore;
  payloadCodecs: readonly PayloadCodec[];
  namespace: string;
}): ChildSessionActivities {
  const content = encodedContent(store, { payloadCodecs, namespace });
  return {
    async decideSessionToolCall({ sessionId, callId, approved, reason }) {
      const { client, info } = Context.current();
      try {
        const decided = await client.workflow.getHandle(sessionId).executeUpdate(approveToolCallUpdate, {
          args: [{ callId, approved, ...(reason === undefined ? {} : { reason }) }],
          // One update per decision: a retried attempt gets the answer of the first.
          updateId: `${info.workflowExecution?.runId ?? info.activityRunId ?? ''}/${info.activityId}`,
        });
        return { callId, decision: decided.decision };
      } catch (error) {
        if (!(error instanceof WorkflowUpdateFailedError)) throw error;
        const cause = error.cause instanceof Error ? error.cause.message : error.message;
        return { callId, refused: previewOf(cause, 1_000) };
      }
    },
    async readSessionText({ sessionId, message }) {
      return textOf(decodeMessage(await content.get(sessionId, message.key)));
    },
  };
}
