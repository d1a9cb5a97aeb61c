import { defineSignal } from '@temporalio/workflow';

/** Payload of {@link toolCallFinishedLateSignal}. */
export interface ToolCallFinishedLateInput {
  callId: string;
  toolName: string;
  /** `still-running`: the grace period after the interrupt ended; `completed`/`failed`: the tool finally settled. */
  outcome: 'still-running' | 'completed' | 'failed';
  /** A short summary of the result or error (at most 500 characters). */
  summary?: string;
}

/**
 * Sent by the worker about a tool that ignored its abort signal: once when it is still running after
 * the grace period, and once when it finally returns or throws, after the session moved on.
 */
export const toolCallFinishedLateSignal = defineSignal<[ToolCallFinishedLateInput]>('toolCallFinishedLate');
