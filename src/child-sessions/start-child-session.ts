import { CancellationScope, startChild, uuid4 } from '@temporalio/workflow';
import type { agentSession } from '../../workflows';
import { toolrailVersion } from '../session';
import { SessionInputError, checkSessionInput, modelLabel, newSessionSearchAttributes } from '../session';
import type { ChildSessionReport, SessionInput } from '../session';
import { ChildSessionHandle } from './child-session-handle';
import { receiveChildSessionReports } from './receive-child-session-reports';
import type { StartChildSessionOptions } from './child-session-types';

/**
 * Starts a toolrail session as a child workflow of the calling workflow and returns its handle.
 * Workflow code only (`toolrail/workflow`); the worker must have toolrail's plugin. The input is
 * checked first, as `startSession` checks it: a bad one throws a `SessionInputError` listing every
 * problem, and nothing starts (uncaught, it fails the workflow task, which Temporal retries: fix
 * the code and the parent goes on). The session reports its approvals and run ends to this
 * workflow. When the scope this was called in is cancelled (the parent's cancellation), the session
 * is interrupted and asked to end; `result()` resolves once it has.
 */
export async function startChildSession({
  sessionId,
  taskQueue,
  parentClosePolicy = 'REQUEST_CANCEL',
  ...options
}: StartChildSessionOptions): Promise<ChildSessionHandle> {
  const checked = checkSessionInput(options);
  if (!checked.ok) throw new SessionInputError(checked.problems);
  // Sent as the check returned it, and said so: the session (of this version) does not check it again.
  const input: SessionInput = { ...checked.input, reportToParent: true, checkedBy: toolrailVersion };
  const workflowId = sessionId ?? `session-${uuid4()}`;
  const scope = CancellationScope.current();
  // Reports that arrive with the child's start, before its handle exists, wait for it.
  const early: ChildSessionReport[] = [];
  const receiver: { handle?: ChildSessionHandle } = {};
  receiveChildSessionReports(workflowId, (report) => {
    if (receiver.handle) receiver.handle.receive(report);
    else early.push(report);
  });
  // Started outside the caller's scope: its cancellation reaches the session as an interrupt, not as Temporal's cancel.
  const workflow = await CancellationScope.nonCancellable(() =>
    startChild<typeof agentSession>('agentSession', {
      workflowId,
      args: [input],
      ...(taskQueue === undefined ? {} : { taskQueue }),
      parentClosePolicy,
      typedSearchAttributes: newSessionSearchAttributes({ running: input.firstMessage !== undefined }),
      staticSummary: `toolrail session (${modelLabel(input.model)})`,
    }),
  );
  const started = new ChildSessionHandle(workflow);
  for (const report of early) started.receive(report);
  receiver.handle = started;
  void scope.cancelRequested.catch(() => started.interruptForCancellation().catch(() => undefined));
  return started;
}
