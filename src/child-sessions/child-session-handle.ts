import { CancellationScope, condition, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ChildWorkflowHandle } from '@temporalio/workflow';
import type { ChildSessionActivities } from '../../activities';
import type { agentSession } from '../../workflows';
import { previewChars } from '../text';
import { endSessionSignal, interruptSignal, userMessageSignal } from '../session';
import type { ChildSessionReport, PendingApproval, SessionStatusView } from '../session';
import type { ChildSessionDecision, ChildSessionEvent, ChildSessionResult } from './child-session-types';

const { decideSessionToolCall } = proxyActivities<ChildSessionActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});
const { readSessionText } = proxyLocalActivities<ChildSessionActivities>({ startToCloseTimeout: '1 minute' });

/**
 * A session running as a child of this workflow (`startChildSession`): send it messages,
 * interrupt it, decide the calls it waits on, follow what it reports, await its end. Its history,
 * queries and Web UI view are any session's (`ToolrailClient.getSession(sessionId)` reads it).
 */
export class ChildSessionHandle {
  /** The session's id: the child's workflow id. */
  readonly sessionId: string;
  readonly #workflow: ChildWorkflowHandle<typeof agentSession>;
  readonly #unread: ChildSessionEvent[] = [];
  readonly #pending = new Map<string, PendingApproval>();
  #ended: SessionStatusView | undefined;
  #failed: Error | undefined;
  #parentCancelled = false;
  #endReported = false;

  /** @internal Made by `startChildSession`. */
  constructor(workflow: ChildWorkflowHandle<typeof agentSession>) {
    this.sessionId = workflow.workflowId;
    this.#workflow = workflow;
    // The end is awaited from here, so that `nextEvent` sees it whenever it comes.
    void workflow.result().then(
      (ended) => {
        this.#ended = ended;
      },
      (error: unknown) => {
        this.#failed = error instanceof Error ? error : new Error(`the child session failed: ${String(error)}`);
      },
    );
  }

  /** Calls the session waits on a decision for, as it reported them (undecided ones). */
  get pendingApprovals(): readonly PendingApproval[] {
    return [...this.#pending.values()];
  }

  /** Queues a user message (the `userMessage` signal): it starts a run, or the next one when a run is in progress. */
  async send(text: string): Promise<void> {
    await this.#workflow.signal(userMessageSignal, { text });
  }

  /** Stops the model call and every running `cancel` tool (`block` tools finish first); `text` starts the next run. */
  async interrupt(text?: string): Promise<void> {
    await this.#workflow.signal(interruptSignal, text === undefined ? {} : { text });
  }

  /** Ends the session once its current run is over. */
  async end(): Promise<void> {
    await this.#workflow.signal(endSessionSignal);
  }

  /**
   * Approves a call the session waits on (through toolrail's activity on this worker: a workflow
   * cannot send updates).
   */
  approve(callId: string, reason?: string): Promise<ChildSessionDecision> {
    return this.#decide(callId, true, reason);
  }

  /** Denies a call the session waits on; `reason` reaches the model. */
  deny(callId: string, reason?: string): Promise<ChildSessionDecision> {
    return this.#decide(callId, false, reason);
  }

  /**
   * The next thing the session reported that this workflow has not read: calls waiting for a
   * decision, a run's end, and last its own end (`session_ended`, with its result). After
   * `session_ended` it resolves with `session_ended` again. Throws the child's failure if it failed.
   */
  async nextEvent(): Promise<ChildSessionEvent> {
    await condition(() => this.#unread.length > 0 || this.#ended !== undefined || this.#failed !== undefined);
    const next = this.#unread.shift();
    if (next !== undefined) return next;
    if (this.#failed !== undefined) throw this.#failed;
    this.#endReported = true;
    return { type: 'session_ended', sessionId: this.sessionId, result: await this.result() };
  }

  /**
   * Waits for the session to end and returns how it ended, its answer (whole) and usage. Throws the
   * child's failure if it failed. Also when the parent is being cancelled: the session was
   * interrupted and ended then, and this resolves once it has (`parentCancelled`).
   */
  async result(): Promise<ChildSessionResult> {
    const ended = await this.#workflow.result();
    const answer = ended.answer;
    // Read even when the parent is being cancelled: what the session answered is the parent's to record.
    const text =
      answer === undefined || answer.text.length < previewChars - 1
        ? answer?.text
        : await CancellationScope.nonCancellable(() =>
            readSessionText({ sessionId: this.sessionId, message: answer.message }),
          );
    return {
      sessionId: this.sessionId,
      status: ended.status,
      lastRunEnd: ended.lastRunEnd,
      ...(answer === undefined || text === undefined ? {} : { answer: text, answerRef: answer.message }),
      usage: ended.usage,
      counters: ended.counters,
      lastTool: ended.lastTool,
      parentCancelled: this.#parentCancelled,
    };
  }

  /** @internal Takes a report the session signalled. */
  receive(report: ChildSessionReport): void {
    if (this.#endReported) return;
    if (report.type === 'approvals_requested') {
      for (const approval of report.approvals) this.#pending.set(approval.callId, approval);
    } else {
      this.#pending.clear();
    }
    this.#unread.push(report);
  }

  /** @internal The parent is being cancelled: interrupt the session and ask it to end, whatever scope is cancelled. */
  async interruptForCancellation(): Promise<void> {
    this.#parentCancelled = true;
    await CancellationScope.nonCancellable(async () => {
      await this.#workflow.signal(interruptSignal, {});
      await this.#workflow.signal(endSessionSignal);
    });
  }

  async #decide(callId: string, approved: boolean, reason: string | undefined): Promise<ChildSessionDecision> {
    const decided = await decideSessionToolCall({
      sessionId: this.sessionId,
      callId,
      approved,
      ...(reason === undefined ? {} : { reason }),
    });
    if ('decision' in decided) this.#pending.delete(callId);
    return decided;
  }
}
