import type { CancellationScope } from '@temporalio/workflow';
import type { CompiledRuleSet, RuleState } from '../../src/rules';
import type { ConversationMessage } from '../../src/models/conversation-message';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import { maxCarriedTranscriptEntries } from '../../src/session/session-input';
import type {
  CarriedSessionState,
  ResolvedSessionLimits,
  SessionCounters,
  SessionInput,
} from '../../src/session/session-input';
import type { SessionStatus } from '../../src/session/session-status';
import type { PendingApproval, TranscriptEntry } from '../../src/session/session-views';
import type { ToolCatalog } from '../../src/dispatch/tool-catalog';

/** A human decision on one call, once it is made. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** A call whose activity runs now, with the scope that cancels it. */
export interface RunningCallEntry {
  prepared: PreparedCall;
  scope: CancellationScope;
  /** Set when the user's interrupt cancelled it (as opposed to a failing sibling). */
  interrupted: boolean;
}

/** A pending interrupt, until the loop has acted on it. */
export interface InterruptRequest {
  message?: string;
}

/**
 * Everything a session workflow holds between events: rule state, conversation, transcript and
 * what it is waiting on. One object, mutated only by the workflow's own code and its handlers.
 */
export class SessionContext {
  readonly sessionId: string;
  readonly input: SessionInput;
  readonly rules: CompiledRuleSet;
  readonly limits: ResolvedSessionLimits;
  readonly interactive: boolean;

  ruleState: RuleState;
  conversation: ConversationMessage[];
  queuedMessages: string[];
  revealedTools: string[];
  counters: SessionCounters;
  runInProgress: boolean;
  turnsInRun: number;
  /** 0-based index of the current turn (or of the next one, between turns): the model request's `turn`. */
  turnIndex = 0;
  /** Turns taken in this workflow run (continue-as-new resets it). */
  turnsThisExecution = 0;

  readonly transcript: TranscriptEntry[];
  status: SessionStatus = 'idle';
  lastRunEnd: string | null = null;
  lastTool: string | null = null;
  catalog: ToolCatalog = { version: '', tools: [], hiddenDeferredTools: [] };
  readonly pendingApprovals = new Map<string, PendingApproval>();
  readonly decisions = new Map<string, ApprovalDecision>();
  readonly running = new Map<string, RunningCallEntry>();
  modelScope: CancellationScope | undefined;
  interrupt: InterruptRequest | undefined;
  endRequested = false;

  constructor(sessionId: string, input: SessionInput, limits: ResolvedSessionLimits, fresh: () => CarriedSessionState) {
    this.sessionId = sessionId;
    this.input = input;
    this.rules = input.rules;
    this.limits = limits;
    this.interactive = input.interactive ?? true;
    const carried = input.carried ?? fresh();
    this.ruleState = carried.ruleState;
    this.conversation = carried.conversation;
    this.queuedMessages = carried.queuedMessages;
    this.revealedTools = carried.revealedTools;
    this.counters = carried.counters;
    this.runInProgress = carried.runInProgress;
    this.turnsInRun = carried.turnsInRun;
    this.transcript = carried.transcript;
    this.turnIndex = carried.counters.turns;
  }

  /** Adds a transcript line stamped with the current turn's index. */
  note(entry: DistributiveOmit<TranscriptEntry, 'turn'>): void {
    this.transcript.push({ ...entry, turn: this.turnIndex });
  }

  /** The names in this turn's catalog, in catalog order. */
  catalogNames(): string[] {
    return this.catalog.tools.map((tool) => tool.name);
  }

  /** What continue-as-new carries. */
  carry(): CarriedSessionState {
    return {
      ruleState: this.ruleState,
      conversation: this.conversation,
      queuedMessages: this.queuedMessages,
      revealedTools: this.revealedTools,
      counters: { ...this.counters, continuedAsNew: this.counters.continuedAsNew + 1 },
      transcript: this.transcript.slice(-maxCarriedTranscriptEntries),
      runInProgress: this.runInProgress,
      turnsInRun: this.turnsInRun,
    };
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
