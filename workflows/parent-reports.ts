import { getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import { childSessionReportSignal } from '../src/session';
import type { ChildSessionReport, SessionInput } from '../src/session';
import type { SessionView } from './session-view';

/**
 * The views (one) of a child session started to report to its parent (`reportToParent`, set by
 * `toolrail/workflow`): it signals the parent workflow (its current run) when calls wait for
 * approval and when a run ends. A parent that has closed is not told; the session goes on.
 * None for every other session: it issues no command.
 */
export function parentReports(input: SessionInput): SessionView[] {
  const parent = workflowInfo().parent;
  if (input.reportToParent !== true || parent === undefined) return [];
  const handle = getExternalWorkflowHandle(parent.workflowId);
  const report = (body: ChildSessionReport): void => {
    void handle.signal(childSessionReportSignal, body).catch(() => undefined);
  };
  const view: SessionView = (event, state) => {
    if (event.type === 'approvals_requested') {
      report({ type: 'approvals_requested', sessionId: state.sessionId, approvals: event.approvals });
    } else if (event.type === 'run_ended') {
      report({
        type: 'run_ended',
        sessionId: state.sessionId,
        run: state.counters.runs,
        reason: event.reason,
        ...(event.detail === undefined ? {} : { detail: event.detail }),
        ...(state.answer === undefined ? {} : { answer: state.answer }),
        usage: state.usage.run,
      });
    }
  };
  return [view];
}
