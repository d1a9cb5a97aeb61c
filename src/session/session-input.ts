import type { CompiledRuleSet, RuleState } from '../rules';
import { emptyConversationLog } from './conversation-log';
import type { ConversationLog, MessageRef } from './conversation-log';
import type { ModelSettings } from '../model-settings';
import type { PreparedCall, ToolErrorOutcome } from '../dispatch';
import { DEFAULT_MAX_TOOL_CONCURRENCY } from '../dispatch';
import type { SessionCounters } from './session-counters';
import type { TranscriptEntry } from './session-views';
import type { SessionUsage } from './model-usage';
import { emptyUsageTotals } from './model-usage';
import { defaultFeedWindowBytes } from './feed-messages';
import type { CarriedFeed } from './feed-messages';
import type { StoreIdentity } from '../store';

export type { SessionCounters };

/** How a concurrent batch reacts when one of its calls fails. */
export type SiblingAbort = 'on-error' | 'never';

/** Limits and switches of one session. Every field has a default (see {@link resolveSessionLimits}). */
export interface SessionLimits {
  /**
   * Model calls allowed in one run before it ends with `turn_limit`. Defaults to the rules'
   * `maxTurnsPerRun`, else 50.
   */
  maxTurnsPerRun?: number;
  /** Most calls of one concurrent batch. Defaults to 10. */
  maxToolConcurrency?: number;
  /** `on-error` (default): a failing call cancels the rest of its concurrent batch; `never`: siblings finish. */
  siblingAbort?: SiblingAbort;
  /** How long a call waits for a human approval before it is denied, in milliseconds. Defaults to 3 600 000 (1 h). */
  approvalTimeoutMs?: number;
  /** Wall-clock limit of one model call attempt, in milliseconds. Defaults to 120 000. */
  modelTimeoutMs?: number;
  /**
   * Continue as new after this many turns in one workflow run, even if the server does not suggest
   * it. Defaults to 500.
   */
  continueAsNewAfterTurns?: number;
  /**
   * How long an idle session (no run in progress) waits for a user message before it completes, in
   * milliseconds. Defaults to 86 400 000 (24 h).
   */
  idleTimeoutMs?: number;
  /**
   * Complete the session as soon as a run ends and no message is queued. Defaults to `!interactive`:
   * a non-interactive session completes after its run, an interactive one waits for the next message.
   */
  closeWhenIdle?: boolean;
  /** Largest user message the session takes, in UTF-8 bytes; larger ones are refused. Defaults to 1 048 576 (1 MiB). */
  maxUserMessageBytes?: number;
  /** Continue as new once this workflow run's history passes this many bytes. Defaults to 524 288 (512 KiB). */
  continueAsNewAtHistoryBytes?: number;
  /**
   * Feed events one workflow run holds for its subscribers (the newest; older ones are read from
   * earlier runs), in UTF-8 bytes of JSON: memory in the worker, never history. Defaults to 524 288 (512 KiB).
   */
  feedWindowBytes?: number;
  /**
   * While the session waits for its content store, how often it checks whether the store is back,
   * in milliseconds; after an operation failed again once the store seemed back, the pause before the
   * next try doubles from this up to 60 s. Defaults to 5 000.
   */
  storeRetryIntervalMs?: number;
}

/** Everything a session starts from. Plain JSON: it is the workflow's input. */
export interface SessionInput {
  /** The compiled rule set (compiled and checked by the client before the start). */
  rules: CompiledRuleSet;
  /** The tools of the worker's registry this session may use, by name. Defaults to all of them. */
  tools?: string[];
  model: ModelSettings;
  systemPrompt?: string;
  /** The first user message; without it the session waits for one. */
  firstMessage?: string;
  /**
   * The first user message, already in the session's content store: what `ToolrailClient` sends
   * instead of a `firstMessage` over 128 KiB, so the workflow's input stays small (never an
   * External Storage claim its history depends on). Rules that read the user's message see its preview.
   */
  firstMessageRef?: MessageRef;
  /** Interactive sessions wait for a human on `ask`; non-interactive ones turn `ask` into deny. Defaults to true. */
  interactive?: boolean;
  limits?: SessionLimits;
  /**
   * A child session's (started by `toolrail/workflow`'s `startChildSession`): it signals its parent
   * workflow (`toolrailChildSession`) when calls wait for approval and when a run ends.
   */
  reportToParent?: boolean;
  /**
   * The toolrail version whose client checked this input (`checkSessionInput`) and sent it as the
   * check returned it: a workflow of that same version does not check it again. `ToolrailClient`
   * sets it; an input without it (or with another version) is checked when the session starts.
   */
  checkedBy?: string;
  /** State carried over by continue-as-new; never set it yourself. */
  carried?: CarriedSessionState;
}

/** What continue-as-new carries into the next run of the workflow, so rules hold exactly as before. */
export interface CarriedSessionState {
  ruleState: RuleState;
  /** The conversation by reference (its messages are in the content store). */
  log: ConversationLog;
  /** Messages waiting for their run: inline text as it arrived, or stored (continue-as-new stores them first). */
  queuedMessages: (string | MessageRef)[];
  revealedTools: string[];
  counters: SessionCounters;
  /** The latest transcript entries (at most {@link maxCarriedTranscriptEntries}). */
  transcript: TranscriptEntry[];
  /** The position of the first of them among every entry since the session began. */
  transcriptStart: number;
  /** Whether a run was in progress at the boundary. */
  runInProgress: boolean;
  turnsInRun: number;
  /** The turn in progress, when the boundary fell between its model call and its last batch. */
  turn?: CarriedTurn;
  /** Token totals of the session and of the run in progress. */
  usage: SessionUsage;
  /** The live feed's next offset and newest events. */
  feed: CarriedFeed;
  /** The identity of the session's content store, recorded when it started. */
  store?: StoreIdentity;
  /** The key a model call stored the session's system prompt under (absent: it goes inline). */
  systemKey?: string;
}

/** A turn continue-as-new interrupted: its calls that have no outcome yet, in call order. */
export interface CarriedTurn {
  /** 0-based index of the turn (part of each call's idempotency key). */
  turnIndex: number;
  /** Calls still to run, or the errors they got, in call order. */
  remaining: (PreparedCall | ToolErrorOutcome)[];
}

/**
 * How many transcript entries continue-as-new carries (the last turns, so a run's own `transcript`
 * query starts with some context); the earlier ones stay in the earlier runs, whose queries
 * `SessionHandle.transcript` reads. Each carried entry is written twice (in the continue-as-new
 * event and the next run's start).
 */
export const maxCarriedTranscriptEntries = 20;

/** How many transcript entries a workflow run keeps for the `transcript` query; older ones stay in its history. */
export const maxTranscriptEntries = 2_000;

/** The carried state of a new session, whose rule state starts at `ruleState`. */
export function freshCarriedState(ruleState: RuleState): CarriedSessionState {
  return {
    ruleState,
    log: emptyConversationLog,
    queuedMessages: [],
    revealedTools: [],
    counters: { turns: 0, runs: 0, toolCalls: 0, blockedCalls: 0, continuedAsNew: 0 },
    transcript: [],
    transcriptStart: 0,
    runInProgress: false,
    turnsInRun: 0,
    usage: { session: emptyUsageTotals, run: emptyUsageTotals },
    feed: { next: 0, window: [], queued: [] },
  };
}

/** Limits with every default filled in. */
export type ResolvedSessionLimits = Required<SessionLimits>;

/**
 * Fills in the defaults of {@link SessionLimits}. `interactive` is the session's own flag (undefined
 * means interactive); it decides the default of `closeWhenIdle`.
 */
export function resolveSessionLimits(
  limits: SessionLimits | undefined,
  rulesMaxTurnsPerRun: number | undefined,
  interactive: boolean | undefined,
): ResolvedSessionLimits {
  limits ??= {};
  return {
    maxTurnsPerRun: limits.maxTurnsPerRun ?? rulesMaxTurnsPerRun ?? 50,
    maxToolConcurrency: limits.maxToolConcurrency ?? DEFAULT_MAX_TOOL_CONCURRENCY,
    siblingAbort: limits.siblingAbort ?? 'on-error',
    approvalTimeoutMs: limits.approvalTimeoutMs ?? 3_600_000,
    modelTimeoutMs: limits.modelTimeoutMs ?? 120_000,
    continueAsNewAfterTurns: limits.continueAsNewAfterTurns ?? 500,
    idleTimeoutMs: limits.idleTimeoutMs ?? 86_400_000,
    closeWhenIdle: limits.closeWhenIdle ?? interactive === false,
    maxUserMessageBytes: limits.maxUserMessageBytes ?? 1_048_576,
    continueAsNewAtHistoryBytes: limits.continueAsNewAtHistoryBytes ?? 524_288,
    feedWindowBytes: limits.feedWindowBytes ?? defaultFeedWindowBytes,
    storeRetryIntervalMs: limits.storeRetryIntervalMs ?? 5_000,
  };
}
