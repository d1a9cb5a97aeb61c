import { setHandler } from '@temporalio/workflow';
import { childSessionReportSignal } from '../session';
import type { ChildSessionReport } from '../session';

/** Takes the reports of one child session. */
export type ChildSessionReportReceiver = (report: ChildSessionReport) => void;

/** The child sessions of this workflow run by session id (module state is per workflow run in the sandbox). */
const receivers = new Map<string, ChildSessionReportReceiver>();
let installed = false;

/**
 * Routes the reports of child session `sessionId` to `receive`; installs the parent's one handler
 * of `toolrailChildSession` the first time. Reports of sessions this run does not know are dropped.
 */
export function receiveChildSessionReports(sessionId: string, receive: ChildSessionReportReceiver): void {
  receivers.set(sessionId, receive);
  if (installed) return;
  installed = true;
  setHandler(childSessionReportSignal, (report) => receivers.get(report.sessionId)?.(report));
}
