import { patched, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { narrow } from '../src/rules';
import type { NarrowResult } from '../src/rules';
import {
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  changedSearchAttributes,
  listedStatus,
  packTranscriptEntry,
  renderCurrentDetails,
  sessionSearchAttributes,
  transcriptPage,
  unpackTranscriptEntry,
} from '../src/session';
import type {
  CarriedTranscriptEntry,
  SessionEvent,
  SessionEventType,
  SessionStatusView,
  StoreProblem,
  TranscriptEntry,
  TranscriptNote,
  TranscriptPage,
  UnavailableTool,
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
  /** One page of them (the `transcript` query's answer); positions count every entry since the session began. */
  page(cursor: string | undefined, maxBytes: number): TranscriptPage;
  /** The latest entries, packed as continue-as-new carries them, and the position of the first. */
  carried(): { transcript: CarriedTranscriptEntry[]; transcriptStart: number };
}

/** The transcript as a view of the events, starting from what continue-as-new carried (whose first entry is at `start`). */
export function transcriptView(carried: readonly CarriedTranscriptEntry[], carriedStart = 0): TranscriptView {
  const entries = carried.map(unpackTranscriptEntry);
  let start = carriedStart;
  let visible: string[] = [];
  const note = (state: SessionState, entry: TranscriptNote): void => {
    entries.push({ ...entry, turn: state.turnIndex });
    if (entries.length > maxTranscriptEntries) start += entries.splice(0, entries.length - maxTranscriptEntries).length;
  };
  return {
    entries: () => entries,
    page: (cursor, maxBytes) => transcriptPage(entries, start, cursor, maxBytes),
    carried: () => {
      const transcript = entries.slice(-maxCarriedTranscriptEntries);
      return {
        transcript: transcript.map(packTranscriptEntry),
        transcriptStart: start + entries.length - transcript.length,
      };
    },
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

/** The events after which the Temporal UI is brought up to date: those that move the status (a notice updates the details only). */
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

/** How many of the latest notices the current details show. */
const noticesShown = 3;

/**
 * The session in the Temporal UI: its search attributes (the listed status, so a turn moves none;
 * only those that changed are upserted, so each upsert stays small in history) and a Markdown
 * summary as the workflow's current details (with the latest notices: a signal or update toolrail
 * does not know, a payload it dropped), brought up to date after each event that moves the status
 * and each notice. `publish` shows the state now (a workflow run's first look at it).
 */
export function temporalUiView(): { onEvent: SessionView; publish: (state: SessionState) => void } {
  const upserted = new Map<string, unknown>();
  // The search attribute shows the listed status (runs recorded before show thinking and running_tools apart).
  const listed = patched('listed-status-attribute');
  const notices: string[] = [];
  // Current details are not a workflow command; search attributes are: only events that move the status upsert them.
  const publish = (state: SessionState, detailsOnly = false): void => {
    const { status, lastTool, counters, lastRunEnd, run, usage } = state;
    const pendingApprovals = [...state.pendingApprovals.values()];
    if (!detailsOnly) {
      const shown = listed ? listedStatus(status) : status;
      const attributes = sessionSearchAttributes({ status: shown, lastTool, counters, pendingApprovals, usage });
      const changed = changedSearchAttributes(attributes, upserted);
      if (changed.length > 0) upsertSearchAttributes(changed);
    }
    const narrowed = (): NarrowResult => narrow(state.rules, state.ruleState, catalogNames(state));
    const storeProblem = currentStoreProblem(state);
    const view = {
      ...{ status, counters, pendingApprovals, lastRunEnd, runInProgress: run.inProgress, narrowed, notices },
      unavailableTools: unavailableTools(state),
    };
    setCurrentDetails(renderCurrentDetails(storeProblem ? { ...view, storeProblem } : view));
  };
  return {
    publish,
    onEvent(event, state) {
      if (event.type === 'notice') {
        notices.splice(0, Math.max(0, notices.push(event.text) - noticesShown));
        publish(state, true);
      } else if (publishedAfter.has(event.type)) publish(state);
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

/** The tools of this turn's catalog that cannot run now (their MCP server is down), with the reason. */
export function unavailableTools(state: SessionState): UnavailableTool[] {
  return state.catalog.tools.flatMap(({ name, unavailable }) =>
    unavailable === undefined ? [] : [{ toolName: name, reason: unavailable }],
  );
}
