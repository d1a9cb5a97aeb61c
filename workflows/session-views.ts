import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { NarrowResult } from '../src/rules';
import {
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  changedSearchAttributes,
  listedStatus,
  packTranscriptEntry,
  renderCurrentDetails,
  sessionSearchAttributes,
  toolrailSearchAttributes,
  toolrailStatusKey,
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
import { currentPatches, patchedIn } from './patches';
import { isEnding, narrowedCatalog } from './session-state';
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
 * The session in the Temporal UI: its search attributes (the listed status, with the counts and the
 * last tool as they are when it moves and before continue-as-new, so a turn upserts none; only
 * those that changed are upserted, so each upsert stays small in history) and a Markdown
 * summary as the workflow's current details (with the latest notices: a signal or update toolrail
 * does not know, a payload it dropped; and the rules' narrowing of the turn), brought up to date
 * after each event that moves the status and each notice. `firstLook` shows the state of a
 * workflow run that begins between runs. A run of this version starts from the search attributes it
 * was started with (those `ToolrailClient` sets, or the run before it left), and a run after which
 * the session ends moves the status once, to where it ends; runs recorded before upsert every
 * attribute at their first look and `idle` before the end, as they did.
 */
export function temporalUiView(): { onEvent: SessionView; firstLook: (state: SessionState) => void } {
  const current = currentPatches();
  const upserted = new Map<string, unknown>(current ? startedWithSearchAttributes() : []);
  // The search attribute shows the listed status (runs recorded before show thinking and running_tools apart).
  const listed = patchedIn('listed-status-attribute');
  // The counts and the last tool go with the listed status (runs recorded before upsert each as it changes).
  const withStatus = patchedIn('search-attributes-on-status-move');
  const notices: string[] = [];
  // Current details are not a workflow command; search attributes are: only events that move the status upsert them.
  const publish = (state: SessionState, { detailsOnly = false, allAttributes = false } = {}): void => {
    const { status, lastTool, counters, lastRunEnd, run, usage } = state;
    const pendingApprovals = [...state.pendingApprovals.values()];
    const shown = listed ? listedStatus(status) : status;
    const upsertNow = !detailsOnly && (!withStatus || allAttributes || upserted.get(toolrailStatusKey.name) !== shown);
    if (upsertNow) {
      const attributes = sessionSearchAttributes({ status: shown, lastTool, counters, pendingApprovals, usage });
      const changed = changedSearchAttributes(attributes, upserted);
      if (changed.length > 0) upsertSearchAttributes(changed);
    }
    const narrowed = (): NarrowResult => narrowedCatalog(state);
    const storeProblem = currentStoreProblem(state);
    const view = {
      ...{ status, counters, pendingApprovals, lastRunEnd, runInProgress: run.inProgress, narrowed, notices },
      unavailableTools: unavailableTools(state),
    };
    setCurrentDetails(renderCurrentDetails(storeProblem ? { ...view, storeProblem } : view));
  };
  return {
    // A run of this version that starts with a message queued shows its details only: the run
    // begins in this workflow task and moves the status (`ToolrailClient` starts such a session
    // listed as `running`).
    firstLook: (state) => publish(state, { detailsOnly: current && state.queuedMessages.length > 0 }),
    onEvent(event, state) {
      if (event.type === 'notice') {
        notices.splice(0, Math.max(0, notices.push(event.text) - noticesShown));
        publish(state, { detailsOnly: true });
      } else if (event.type === 'run_ended' && current && isEnding(state)) {
        // `session_ended` follows in this workflow task: it shows the end.
      } else if (event.type === 'continued_as_new' && withStatus) {
        // The next run starts from these: a long run's counts reach the list at least once per workflow run.
        publish(state, { allAttributes: true });
      } else if (publishedAfter.has(event.type)) publish(state);
    },
  };
}

/** The values of toolrail's search attributes this workflow run started with (absent ones as `null`, as an upsert removes them). */
function startedWithSearchAttributes(): [string, unknown][] {
  const { typedSearchAttributes } = workflowInfo();
  return toolrailSearchAttributes.map((key) => [key.name, typedSearchAttributes.get(key) ?? null]);
}

/** The answer of the `status` query, and the workflow's result: with the session's store, and why it waits for it. */
export function statusView(state: SessionState): SessionStatusView {
  const { status, lastRunEnd, lastTool, counters, queuedMessages, usage, store, answer } = state;
  const storeProblem = currentStoreProblem(state);
  return {
    status,
    lastRunEnd,
    lastTool,
    counters: { ...counters },
    queuedMessages: queuedMessages.length,
    usage,
    ...(answer === undefined ? {} : { answer }),
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
