import { defineSignal } from '@temporalio/workflow';
import type { UsageTotals } from './model-usage';
import type { SessionAnswer } from './session-answer';
import type { RunEndReason } from './session-status';
import type { PendingApproval } from './session-views';

/**
 * What a session started with `reportToParent` (a child session, see `toolrail/workflow`) tells
 * its parent workflow, by {@link childSessionReportSignal}: calls that wait for a decision, and
 * each run's end.
 */
export type ChildSessionReport =
  | { type: 'approvals_requested'; sessionId: string; approvals: PendingApproval[] }
  | {
      type: 'run_ended';
      sessionId: string;
      /** The run's number in the session, from 1. */
      run: number;
      reason: RunEndReason;
      detail?: string;
      /** The model's latest text in the run, if it wrote any. */
      answer?: SessionAnswer;
      /** Tokens the run's model calls used. */
      usage: UsageTotals;
    };

/** The signal a child session reports to its parent with. */
export const childSessionReportSignal = defineSignal<[ChildSessionReport]>('toolrailChildSession');
