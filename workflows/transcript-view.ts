import {
  feedToolListLimit,
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  shadowVerdictView,
  transcriptPage,
  unhandledEvent,
} from '../src/session';
import type { TranscriptEntry, TranscriptNote, TranscriptPage } from '../src/session';
import type { SessionState } from './session-state';
import type { SessionView } from './session-view';

/** The human-readable transcript (the `transcript` query): one entry per event worth reading. */
export interface TranscriptView {
  readonly onEvent: SessionView;
  /** The entries this workflow run keeps (at most {@link maxTranscriptEntries}). */
  entries(): TranscriptEntry[];
  /** One page of them (the `transcript` query's answer); positions count every entry since the session began. */
  page(cursor: string | undefined, maxBytes: number): TranscriptPage;
  /** The latest entries, as continue-as-new carries them, and the position of the first. */
  carried(): { transcript: TranscriptEntry[]; transcriptStart: number };
}

/**
 * The transcript as a view of the events, starting from what continue-as-new carried (whose first
 * entry is at `start`).
 */
export function transcriptView(carried: readonly TranscriptEntry[], carriedStart = 0): TranscriptView {
  const entries = [...carried];
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
      return { transcript, transcriptStart: start + entries.length - transcript.length };
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
            finishReason,
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
        case 'rule_shadowed': {
          const { type: _type, ...verdict } = event;
          const omitted = verdict.kind === 'hidden' ? Math.max(0, verdict.tools.length - feedToolListLimit) : 0;
          const shadow = shadowVerdictView(verdict, feedToolListLimit);
          return note(state, { kind: 'shadow', shadow, ...(omitted > 0 ? { omitted } : {}) });
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
        case 'worker_waiting':
          return note(state, {
            kind: 'notice',
            text: `[toolrail] ${event.tool} (call ${event.callId}) waits for a worker of task queue ${event.taskQueue} with activity ${event.activityType}: ${event.why}`,
          });
        case 'run_ended':
          return note(state, {
            kind: 'run-end',
            reason: event.reason,
            ...(event.detail === undefined ? {} : { detail: event.detail }),
          });
        // The rest is bookkeeping, or shows in the events above (a call's outcome in its result).
        case 'message_received':
        case 'messages_stored':
        case 'turn_started':
        case 'catalog_changed':
        case 'model_call_started':
        case 'model_text':
        case 'model_call_failed':
        case 'approvals_requested':
        case 'approval_decided':
        case 'batch_started':
        case 'tool_started':
        case 'tool_ended':
        case 'batch_ended':
        case 'batch_cancelled':
        case 'log_sealed':
        case 'interrupt_received':
        case 'end_requested':
        case 'continued_as_new':
        case 'session_ended':
        case 'store_identified':
        case 'worker_back':
          return;
        default:
          return unhandledEvent(event);
      }
    },
  };
}
