import type { WorkflowHandle } from '@temporalio/client';
import {
  approveToolCallUpdate,
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  statusQuery,
  transcriptQuery,
  userMessageSignal,
} from '../session/session-messages';
import type { SessionRuleStateView, SessionStatusView, TranscriptEntry } from '../session/session-views';
import type { Trace } from '../rules';
import { readTranscript } from '../tracing/read-transcript';
import type { ReadToolContent } from '../tracing/read-transcript';
import { recordedTrace } from '../tracing/recorded-trace';
import type { agentSession } from '../../workflows/agent-session';

/** A typed handle on one session (one workflow). */
export class SessionHandle {
  /** The session id, which is the workflow id. */
  readonly sessionId: string;
  readonly workflow: WorkflowHandle<typeof agentSession>;

  constructor(workflow: WorkflowHandle<typeof agentSession>) {
    this.workflow = workflow;
    this.sessionId = workflow.workflowId;
  }

  /** Sends a user message: it starts a run now, or after the running tools finish. */
  async send(text: string): Promise<void> {
    await this.workflow.signal(userMessageSignal, { text });
  }

  /** Interrupts: stops the model call and `cancel` tools; `message` starts the next run. */
  async interrupt(message?: string): Promise<void> {
    await this.workflow.signal(interruptSignal, message === undefined ? {} : { message });
  }

  /** Approves a call that waits for a human. Rejects if no such call waits. */
  async approve(callId: string, reason?: string): Promise<void> {
    await this.workflow.executeUpdate(approveToolCallUpdate, {
      args: [{ callId, approved: true, ...(reason === undefined ? {} : { reason }) }],
    });
  }

  /** Denies a call that waits for a human. Rejects if no such call waits. */
  async deny(callId: string, reason?: string): Promise<void> {
    await this.workflow.executeUpdate(approveToolCallUpdate, {
      args: [{ callId, approved: false, ...(reason === undefined ? {} : { reason }) }],
    });
  }

  /** The rule state: visible and hidden tools with reasons, counts, sequences, pending approvals, running calls. */
  ruleState(): Promise<SessionRuleStateView> {
    return this.workflow.query(ruleStateQuery);
  }

  /** Everything that happened, turn by turn. */
  transcript(): Promise<TranscriptEntry[]> {
    return this.workflow.query(transcriptQuery);
  }

  /**
   * What the session did, as a trace for `toolrail simulate`: its catalog, user messages, and every
   * model response with the calls that reached the rules, their arguments and results. Simulate it
   * with other rules to see which calls they would have hidden or refused, and why.
   * `readToolContent` returns a tool result's full text (default: the transcript's `content`).
   */
  async exportTrace({ readToolContent }: { readToolContent?: ReadToolContent } = {}): Promise<Trace> {
    const [entries, state] = await Promise.all([this.transcript(), this.ruleState()]);
    const catalog = [...state.rules.visible, ...state.rules.hidden.map(({ tool }) => tool)];
    const events = await readTranscript(entries, readToolContent);
    return recordedTrace(events, catalog, `session ${this.sessionId}, exported from its transcript`);
  }

  /** Status, counters and why the last run ended. */
  status(): Promise<SessionStatusView> {
    return this.workflow.query(statusQuery);
  }

  /** Asks the session to end once its current run is over. */
  async end(): Promise<void> {
    await this.workflow.signal(endSessionSignal);
  }

  /** Waits for the session to end and returns its final status. */
  result(): Promise<SessionStatusView> {
    return this.workflow.result();
  }
}
