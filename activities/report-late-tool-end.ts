import { Context } from '@temporalio/activity';
import { previewOf } from '../src/text';
import { toolCallFinishedLateSignal } from '../src/session';
import type { ToolCallFinishedLateInput } from '../src/session';
import type { AfterAbort } from '../src/tools';
import { describeError } from '../src/tools';

const maxSummaryChars = 500;

/**
 * The {@link AfterAbort} of one tool call in the current activity: after `graceMs`, and again when
 * the tool finally settles, it signals the session workflow (through the worker's client) with
 * `toolCallFinishedLate`. A failed signal (session ended) is logged, never thrown.
 */
export function reportLateToolEnd({
  callId,
  toolName,
  graceMs,
}: {
  callId: string;
  toolName: string;
  graceMs: number;
}): AfterAbort {
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  const send = (input: ToolCallFinishedLateInput): void => {
    context.log.warn(`[toolrail] ${toolName} call ${callId} ignored its abort signal: ${input.outcome}`);
    if (workflowId === undefined) return;
    void context.client.workflow
      .getHandle(workflowId)
      .signal(toolCallFinishedLateSignal, input)
      .catch((error: unknown) => {
        context.log.warn(`[toolrail] could not report ${callId}: ${describeError(error)}`);
      });
  };
  return {
    graceMs,
    onStillRunning: () => send({ callId, toolName, outcome: 'still-running' }),
    onLateEnd: (end) => {
      if (end.kind === 'returned') {
        send({ callId, toolName, outcome: 'completed', summary: summarize(end.output) });
      } else {
        send({ callId, toolName, outcome: 'failed', summary: describeError(end.error) });
      }
    },
  };
}

function summarize(output: unknown): string {
  let text: string;
  try {
    text = typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output));
  } catch {
    text = String(output);
  }
  return text.length > maxSummaryChars ? `${previewOf(text, maxSummaryChars)}…` : text;
}
