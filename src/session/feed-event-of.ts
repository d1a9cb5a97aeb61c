import type { Reason } from '../rules';
import type { ToolOutcome } from '../dispatch';
import { previewOf, utf8ByteLength } from '../text';
import type { ContentRef } from '../store';
import { feedPreviewChars, feedValueBytes } from './feed-events';
import type { FeedEventBody, FeedReason, FeedValue } from './feed-events';
import type { SessionEvent } from './session-events';
import { shadowVerdictView } from './shadow-verdict';
import { unhandledEvent } from './unhandled-event';

/**
 * Most tools `tools_narrowed` lists by name, visible and hidden each, and `rule_shadowed` hidden; the
 * rest are counted in `omitted`.
 */
export const feedToolListLimit = 100;

/**
 * The feed's view of one session event, or `undefined` for the events that are the session's own
 * bookkeeping (stored messages, a sealed log, a changed catalog, the store's identity).
 * `run_started`, `model_text` and the
 * queue's offsets need what came before; the feed view (`workflows/session-feed.ts`) adds them.
 */
export function feedEventBodyOf(event: SessionEvent): FeedEventBody | undefined {
  switch (event.type) {
    case 'message_received':
      return { type: event.type, via: event.via, preview: previewOf(event.text, feedPreviewChars) };
    case 'run_started':
      return { type: event.type, message: refOf(event.message) };
    case 'turn_started':
      return { type: event.type, ...(event.resumed ? { resumed: true } : {}) };
    case 'tools_narrowed':
      return narrowedBody(event.visible, event.hidden);
    case 'model_call_started':
      return { type: event.type, tools: event.tools };
    case 'rule_shadowed': {
      const { type, ...verdict } = event;
      const omitted = verdict.kind === 'hidden' ? Math.max(0, verdict.tools.length - feedToolListLimit) : 0;
      return { type, ...shadowVerdictView(verdict, feedToolListLimit), ...(omitted > 0 ? { omitted } : {}) };
    }
    case 'model_responded':
      return {
        type: event.type,
        ...(event.text === undefined ? {} : { text: previewOf(event.text, feedPreviewChars) }),
        calls: event.calls.map(({ callId, tool, args }) => ({ callId, tool, args: feedValueOf(args) })),
        message: refOf(event.message),
        ...(event.finishReason === undefined ? {} : { finishReason: event.finishReason }),
        ...(event.rawFinishReason === undefined ? {} : { rawFinishReason: previewOf(event.rawFinishReason, 100) }),
        ...(event.usage === undefined ? {} : { usage: event.usage }),
      };
    case 'model_call_failed':
      return {
        type: event.type,
        interrupted: event.interrupted,
        ...(event.error === undefined ? {} : { error: previewOf(event.error, 1_000) }),
      };
    case 'end_refused':
      return { type: event.type, text: previewOf(event.text, 1_000) };
    case 'verdict':
      return { ...event, reasons: event.reasons.map(reasonOf) };
    case 'approvals_requested':
      return {
        type: event.type,
        approvals: event.approvals.map(({ callId, toolName, input, reason, destructive, deadline }) => ({
          callId,
          tool: toolName,
          input: feedValueOf(input),
          reason: previewOf(reason, 1_000),
          destructive,
          deadline,
        })),
      };
    case 'approval_decided':
    case 'approvals_closed':
    case 'batch_started':
    case 'end_requested':
    case 'continued_as_new':
    case 'session_ended':
      return event;
    case 'tool_started':
      return { type: event.type, callId: event.callId, tool: event.tool, approved: event.approved };
    case 'tool_ended':
      return { type: event.type, callId: event.callId, tool: event.tool, ...outcomeOf(event.outcome, event.message) };
    case 'batch_ended':
      return { type: event.type, index: event.index };
    case 'batch_cancelled':
      return { type: event.type, callIds: event.outcomes.map((outcome) => outcome.callId) };
    case 'results_appended':
      return {
        type: event.type,
        results: event.results.map(({ callId, tool, isError, code, content, message }) => ({
          callId,
          tool,
          isError,
          ...(code === undefined ? {} : { code }),
          preview: previewOf(content, feedPreviewChars),
          ...(message ? { ref: refOf(message) } : {}),
        })),
      };
    case 'interrupt_received':
      return {
        type: event.type,
        ...(event.message === undefined ? {} : { message: previewOf(event.message, feedPreviewChars) }),
      };
    case 'run_ended':
      return {
        type: event.type,
        reason: event.reason,
        ...(event.detail === undefined ? {} : { detail: event.detail }),
      };
    case 'notice':
      return { type: event.type, text: previewOf(event.text, 1_000) };
    case 'store_waiting':
      return {
        type: event.type,
        wait: event.wait,
        problem: { ...event.problem, message: previewOf(event.problem.message, 1_000) },
      };
    case 'store_back':
    case 'worker_back':
      return event;
    case 'worker_waiting':
      return { ...event, why: previewOf(event.why, 1_000) };
    case 'model_text':
    case 'messages_stored':
    case 'catalog_changed':
    case 'log_sealed':
    case 'store_identified':
      return undefined;
    default:
      return unhandledEvent(event);
  }
}

/** A value the feed shows: itself when its JSON is at most {@link feedValueBytes}, else a preview of its JSON. */
export function feedValueOf(value: unknown): FeedValue {
  const json = JSON.stringify(value) ?? 'null';
  if (utf8ByteLength(json) <= feedValueBytes) return { value: value ?? null };
  return { preview: previewOf(json, feedPreviewChars), truncated: true };
}

function narrowedBody(
  visible: readonly string[],
  hidden: readonly { tool: string; reasons: Reason[] }[],
): FeedEventBody {
  const omitted = {
    visible: Math.max(0, visible.length - feedToolListLimit),
    hidden: Math.max(0, hidden.length - feedToolListLimit),
  };
  return {
    type: 'tools_narrowed',
    visible: visible.slice(0, feedToolListLimit),
    hidden: hidden.slice(0, feedToolListLimit).map(({ tool, reasons }) => ({ tool, reasons: reasons.map(reasonOf) })),
    ...(omitted.visible + omitted.hidden > 0 ? { omitted } : {}),
  };
}

function reasonOf({ code, message, callFirst }: FeedReason): FeedReason {
  return { code, message: previewOf(message, 1_000), ...(callFirst ? { callFirst } : {}) };
}

function outcomeOf(
  outcome: ToolOutcome,
  stored: ContentRef | undefined,
): { isError: boolean; code?: string; output: FeedValue; ref?: ContentRef } {
  // The workflow holds no output the rules do not read: the stored result's preview stands for it.
  if (outcome.type === 'tool-result' && outcome.output === null && stored !== undefined)
    return { isError: false, output: { preview: stored.preview, truncated: true }, ref: refOf(stored) };
  if (outcome.type === 'tool-result')
    return { isError: false, output: feedValueOf(outcome.output), ...(stored ? { ref: refOf(stored) } : {}) };
  return { isError: true, code: outcome.code, output: feedValueOf(previewOf(outcome.message, 1_000)) };
}

/** A content reference without anything else its holder added (a message's role). */
function refOf({ key, bytes, preview }: ContentRef): ContentRef {
  return { key, bytes, preview };
}
