import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { narrow } from '../src/rules';
import type { NarrowResult } from '../src/rules';
import {
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  renderCurrentDetails,
  sessionSearchAttributes,
} from '../src/session';
import type {
  SessionEvent,
  SessionEventType,
  SessionStatusView,
  StoreProblem,
  TranscriptEntry,
  TranscriptNote,
} from '../src/session';
import { catalogNames } from './session-state';
import type { SessionState } from './session-state';

/** Something that sees every event once the state has applied it. */
export type SessionView = (event: SessionEvent, state: SessionState) => void;

/** The human-readable transcript (the `transcript` query): one entry per event worth reading. */
export interface TranscriptView {
  readonly onEvent: SessionView;
  /** The entries this workflow run keeps (at most {@link maxTranscriptEntries}). */
  entries(): TranscriptEntry[];
  /** The latest entries, which continue-as-new carries. */
  carried(): TranscriptEntry[];
}

/** The transcript as a view of the events, starting from what continue-as-new carried. */
export function transcriptView(carried: readonly TranscriptEntry[]): TranscriptView {
  const entries = [...carried];
  let visible: string[] = [];
  const note = (state: SessionState, entry: TranscriptNote): void => {
    entries.push({ ...entry, turn: state.turnIndex });
    if (entries.length > maxTranscriptEntries) entries.splice(0, entries.length - maxTranscriptEntries);
  };
  return {
    entries: () => entries,
    carried: () => entries.slice(-maxCarriedTranscriptEntries),
    onEvent(event, state) {
      switch (event.type) {
        case 'run_started':
          return note(state, { kind: 'user', text: event.message.preview, ref: event.message });
        case 'tools_narrowed':
          visible = event.visible;
          return;
        case 'model_responded': {
          const { text, calls, message, shown, finishReason, rawFinishReason, usage } = event;
          return note(state, {
            kind: 'model',
            ...(text ? { text } : {}),
            visible,
            calls,
            ref: message,
            shown,
            ...(finishReason === undefined ? {} : { finishReason }),
            ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
            ...(usage === undefined ? {} : { usage }),
          });
        }
        case 'end_refused':
        case 'notice':
          return note(state, { kind: 'notice', text: event.text });
        case 'verdict': {
          const { callId, tool, verdict, reasons } = event;
          return note(state, { kind: 'verdict', callId, tool, verdict, reasons });
        }
        case 'approvals_closed':
          for (const decided of event.decisions) note(state, { kind: 'approval', ...decided });
          return;
        case 'results_appended':
          for (const { callId, tool, isError, code, content, message } of event.results) {
            note(state, {
              kind: 'tool',
              callId,
              tool,
              isError,
              ...(code === undefined ? {} : { code }),
              content,
              ...(message ? { ref: message } : {}),
            });
          }
          return;
        case 'store_waiting':
          // Once per wait: when it begins (its later problems are in the status, not the transcript).
          if (event.problem.retries > 0) return;
          return note(state, {
            kind: 'notice',
            text: `[toolrail] waiting for the content store: ${event.problem.message}`,
          });
        case 'store_back':
          return note(state, { kind: 'notice', text: '[toolrail] the content store is back: the session goes on' });
        case 'run_ended':
          return note(state, {
            kind: 'run-end',
            reason: event.reason,
            ...(event.detail === undefined ? {} : { detail: event.detail }),
          });
        default:
          return;
      }
    },
  };
}

/** The events after which the Temporal UI is brought up to date: those that move the status. */
const publishedAfter = new Set<SessionEventType>([
  'model_call_started',
  'batch_started',
  'approvals_requested',
  'approvals_closed',
  'run_ended',
  'session_ended',
  'store_waiting',
  'store_back',
]);

/**
 * The session in the Temporal UI: its search attributes (only those that changed are upserted, so
 * each upsert stays small in history) and a Markdown summary as the workflow's current details, brought up to date after each event that
 * moves the status. `publish` shows the state now (a workflow run's first look at it).
 */
export function temporalUiView(): { onEvent: SessionView; publish: (state: SessionState) => void } {
  const upserted = new Map<string, unknown>();
  const publish = (state: SessionState): void => {
    const { status, lastTool, counters, lastRunEnd, run, usage } = state;
    const pendingApprovals = [...state.pendingApprovals.values()];
    const attributes = sessionSearchAttributes({ status, lastTool, counters, pendingApprovals, usage });
    const changed = attributes.filter(({ key, value }) => !upserted.has(key.name) || upserted.get(key.name) !== value);
    if (changed.length > 0) upsertSearchAttributes(changed);
    for (const { key, value } of changed) upserted.set(key.name, value);
    const narrowed = (): NarrowResult => narrow(state.rules, state.ruleState, catalogNames(state));
    const storeProblem = currentStoreProblem(state);
    const view = { status, counters, pendingApprovals, lastRunEnd, runInProgress: run.inProgress, narrowed };
    setCurrentDetails(renderCurrentDetails(storeProblem ? { ...view, storeProblem } : view));
  };
  return {
    publish,
    onEvent(event, state) {
      if (publishedAfter.has(event.type)) publish(state);
    },
  };
}

/** The answer of the `status` query, and the workflow's result: with the session's store, and why it waits for it. */
export function statusView(state: SessionState): SessionStatusView {
  const { status, lastRunEnd, lastTool, counters, queuedMessages, usage, store } = state;
  const storeProblem = currentStoreProblem(state);
  return {
    status,
    lastRunEnd,
    lastTool,
    counters: { ...counters },
    queuedMessages: queuedMessages.length,
    usage,
    ...(store.identity === undefined ? {} : { store: store.identity }),
    ...(storeProblem === undefined ? {} : { storeProblem }),
  };
}

/** Why the session waits for its content store now (the newest problem of the operations that wait), if it does. */
export function currentStoreProblem(state: SessionState): StoreProblem | undefined {
  return [...state.store.waits.values()].at(-1);
}
