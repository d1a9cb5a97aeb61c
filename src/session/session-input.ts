import type { CompiledRuleSet, RuleState } from '../rules';
import type { ConversationMessage } from '../models/conversation-message';
import type { ModelSettings } from '../models/model-settings';
import type { TranscriptEntry } from './session-views';

/** How a concurrent batch reacts when one of its calls fails. */
export type SiblingAbort = 'on-error' | 'never';

/** Limits and switches of one session. Every field has a default (see {@link resolveSessionLimits}). */
export interface SessionLimits {
  /** Model calls allowed in one run before it ends with `turn_limit`. Defaults to the rules' `maxTurnsPerRun`, else 50. */
  maxTurnsPerRun?: number;
  /** Most calls of one concurrent batch. Defaults to 10. */
  maxToolConcurrency?: number;
  /** `on-error` (default): a failing call cancels the rest of its concurrent batch; `never`: siblings finish. */
  siblingAbort?: SiblingAbort;
  /** How long a call waits for a human approval before it is denied, in milliseconds. Defaults to 3 600 000 (1 h). */
  approvalTimeoutMs?: number;
  /** Wall-clock limit of one model call attempt, in milliseconds. Defaults to 120 000. */
  modelTimeoutMs?: number;
  /** Continue as new after this many turns in one workflow run, even if the server does not suggest it. Defaults to 500. */
  continueAsNewAfterTurns?: number;
  /** How long an idle session (no run in progress) waits for a user message before it completes, in milliseconds. Defaults to 86 400 000 (24 h). */
  idleTimeoutMs?: number;
  /**
   * Complete the session as soon as a run ends and no message is queued. Defaults to `!interactive`:
   * a non-interactive session completes after its run, an interactive one waits for the next message.
   */
  closeWhenIdle?: boolean;
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
  /** Interactive sessions wait for a human on `ask`; non-interactive ones turn `ask` into deny. Defaults to true. */
  interactive?: boolean;
  limits?: SessionLimits;
  /** State carried over by continue-as-new; never set it yourself. */
  carried?: CarriedSessionState;
}

/** What continue-as-new carries into the next run of the workflow, so rules hold exactly as before. */
export interface CarriedSessionState {
  ruleState: RuleState;
  conversation: ConversationMessage[];
  queuedMessages: string[];
  revealedTools: string[];
  counters: SessionCounters;
  /** The latest transcript entries (at most {@link maxCarriedTranscriptEntries}). */
  transcript: TranscriptEntry[];
  /** Whether a run was in progress at the boundary. */
  runInProgress: boolean;
  turnsInRun: number;
}

/** How many transcript entries continue-as-new carries; older ones stay in the earlier runs' queries and histories. */
export const maxCarriedTranscriptEntries = 1_000;

/** Session-wide counters, shown in queries and search attributes. */
export interface SessionCounters {
  turns: number;
  runs: number;
  toolCalls: number;
  blockedCalls: number;
  continuedAsNew: number;
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
    maxToolConcurrency: limits.maxToolConcurrency ?? 10,
    siblingAbort: limits.siblingAbort ?? 'on-error',
    approvalTimeoutMs: limits.approvalTimeoutMs ?? 3_600_000,
    modelTimeoutMs: limits.modelTimeoutMs ?? 120_000,
    continueAsNewAfterTurns: limits.continueAsNewAfterTurns ?? 500,
    idleTimeoutMs: limits.idleTimeoutMs ?? 86_400_000,
    closeWhenIdle: limits.closeWhenIdle ?? interactive === false,
  };
}
