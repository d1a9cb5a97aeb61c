import type { RuleStateView } from '../rules';
import type { SessionCounters } from './session-counters';
import type { SessionStatus } from './session-status';

/** A call that waits for a human decision (`approveToolCall`). */
export interface PendingApproval {
  callId: string;
  toolName: string;
  /** The parsed input the human is asked to approve. */
  input: unknown;
  /** Why it needs approval: the tool's permission message, or the rule that requires it. */
  reason: string;
  destructive: boolean;
  /** Epoch milliseconds (workflow time) when the approval times out and counts as denied. */
  deadline: number;
}

/** A call whose activity is running right now. */
export interface RunningCall {
  callId: string;
  toolName: string;
  interruptBehavior: 'cancel' | 'block';
}

/** The answer of the `ruleState` query: the engine's view plus what the session is waiting on. */
export interface SessionRuleStateView {
  rules: RuleStateView;
  pendingApprovals: PendingApproval[];
  runningCalls: RunningCall[];
}

/** The answer of the `status` query. */
export interface SessionStatusView {
  status: SessionStatus;
  /** Why the last run ended: `text`, `terminal`, `turn_limit`, `no_tool_allowed`, `interrupted`; `null` before any ended. */
  lastRunEnd: string | null;
  lastTool: string | null;
  counters: SessionCounters;
  queuedMessages: number;
}

/** One line of the human-readable transcript (the `transcript` query). */
export type TranscriptEntry =
  | { kind: 'user'; turn: number; text: string }
  | {
      kind: 'model';
      turn: number;
      text?: string;
      visible: string[];
      calls: { callId: string; tool: string; args: unknown }[];
    }
  | {
      kind: 'verdict';
      turn: number;
      callId: string;
      tool: string;
      verdict: 'allowed' | 'blocked';
      reasons: { code: string; message: string; callFirst?: readonly string[] }[];
    }
  | {
      kind: 'approval';
      turn: number;
      callId: string;
      tool: string;
      decision: 'approved' | 'denied' | 'timed_out' | 'interrupted';
      reason?: string;
    }
  | { kind: 'tool'; turn: number; callId: string; tool: string; isError: boolean; code?: string; content: string }
  | { kind: 'run-end'; turn: number; reason: string; detail?: string }
  | { kind: 'notice'; turn: number; text: string };
