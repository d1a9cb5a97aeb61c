import { unhandledEvent } from '../session';
import type { FeedEvent, FeedEventOf, FeedValue, RunEndReason, UsageTotals } from '../session';
import type { ContentRef } from '../store';

/**
 * One chunk of the AI SDK's UI message stream (protocol `v1`, what `useChat` and
 * `readUIMessageStream` read): the parts toolrail writes. A session's feed becomes one assistant
 * message per run; what the AI SDK has no part for is a `data-*` part (`data-verdict`,
 * `data-approval`, `data-tools`, `data-run`, `data-run-ended`, `data-notice`, `data-interrupt`,
 * `data-message`, `data-model`, `data-store`, `data-session-ended`).
 */
export type UIMessageChunk =
  | { type: 'start'; messageId: string }
  | { type: 'finish'; finishReason: UIFinishReason }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic: true }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'error'; errorText: string }
  | { type: `data-${string}`; id?: string; data: unknown };

/** Why a run's message finished, in the UI message stream's terms. */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'interrupted' | 'error' | 'other';

/** Options of {@link uiMessageChunker}. */
export interface UIMessageChunkerOptions {
  /** The session: the runs' message ids are `<sessionId>/run-<n>`. */
  sessionId: string;
  /**
   * The whole text of a stored assistant message (e.g. `SessionHandle.readText`), so each text part
   * ends complete; without it a text part ends with what was streamed, or the feed's preview.
   */
  readText?: (ref: ContentRef) => Promise<string | undefined>;
}

/**
 * Turns a session's feed events, in order, into UI message stream chunks: returns the chunks of
 * each event (none for some). It may start anywhere in the feed: a run, a step or a tool call it
 * joins in the middle is opened first. Text: `text-delta`s as the model streams, completed when it
 * answers. Tools (as dynamic tools): the proposed call's input, then its output, its error (a call
 * the rules refused, with their reasons), or `tool-output-denied` (approval not granted). The
 * rules' verdicts, approvals, hidden tools and waits for the content store are `data-*` parts; an
 * approval keeps one id (`approval-<callId>`) and so does a wait for the store, so a reader shows its latest state.
 */
export function uiMessageChunker({
  sessionId,
  readText,
}: UIMessageChunkerOptions): (event: FeedEvent) => Promise<UIMessageChunk[]> {
  let run: number | undefined;
  let step = false;
  let text: { id: string; turn: number; written: string } | undefined;
  const known = new Set<string>();
  const settled = new Set<string>();
  const approvals = new Map<string, Record<string, unknown>>();
  // A wait for the content store keeps one part id, from its first `store_waiting` to its `store_back`.
  const storeWaits = new Map<number, string>();

  return async (event) => {
    const chunks: UIMessageChunk[] = [];
    const endText = (): void => {
      if (text) chunks.push({ type: 'text-end', id: text.id });
      text = undefined;
    };
    const endStep = (): void => {
      endText();
      if (step) chunks.push({ type: 'finish-step' });
      step = false;
    };
    const startStep = (): void => {
      if (!step) chunks.push({ type: 'start-step' });
      step = true;
    };
    const tool = (callId: string, toolName: string): void => {
      if (!known.has(callId))
        chunks.push({ type: 'tool-input-available', toolCallId: callId, toolName, input: null, dynamic: true });
      known.add(callId);
    };
    const settle = (callId: string, chunk: UIMessageChunk): void => {
      if (settled.has(callId)) return;
      settled.add(callId);
      chunks.push(chunk);
    };
    const approval = (callId: string, data: Record<string, unknown>): void => {
      const merged = { ...approvals.get(callId), ...data };
      approvals.set(callId, merged);
      chunks.push({ type: 'data-approval', id: `approval-${callId}`, data: merged });
    };

    if (event.run === 0 || (event.type === 'session_ended' && run === undefined)) {
      if (event.type === 'session_ended') chunks.push({ type: 'data-session-ended', data: { status: event.status } });
      return chunks;
    }
    if (run !== event.run && event.type !== 'session_ended') {
      if (run !== undefined) endRun(chunks, endStep, 'other');
      run = event.run;
      chunks.push({ type: 'start', messageId: `${sessionId}/run-${event.run}` });
    }
    switch (event.type) {
      case 'run_started':
        chunks.push({
          type: 'data-run',
          data: { run: event.run, message: event.message.preview, messageOffset: event.messageOffset },
        });
        break;
      case 'message_received':
        chunks.push({ type: 'data-message', data: { via: event.via, preview: event.preview } });
        break;
      case 'turn_started':
        endStep();
        startStep();
        break;
      case 'tools_narrowed':
        startStep();
        chunks.push({
          type: 'data-tools',
          id: `tools-${event.turn}`,
          data: { turn: event.turn, visible: event.visible, hidden: event.hidden, omitted: event.omitted },
        });
        break;
      case 'text_delta': {
        startStep();
        const id = `text-${event.turn}-${event.attempt}`;
        if (text?.id !== id) {
          endText();
          text = { id, turn: event.turn, written: '' };
          chunks.push({ type: 'text-start', id });
        }
        text.written += event.text;
        chunks.push({ type: 'text-delta', id, delta: event.text });
        break;
      }
      case 'model_responded':
        startStep();
        await answerText(event, chunks, text?.turn === event.turn ? text : undefined, readText);
        text = undefined;
        if (event.finishReason !== undefined || event.usage !== undefined) {
          const { finishReason, rawFinishReason, usage } = event;
          chunks.push({
            type: 'data-model',
            id: `model-${event.turn}`,
            data: { turn: event.turn, finishReason, rawFinishReason, usage },
          });
        }
        for (const call of event.calls) {
          const input = valueOf(call.args);
          chunks.push({
            type: 'tool-input-available',
            toolCallId: call.callId,
            toolName: call.tool,
            input,
            dynamic: true,
          });
          known.add(call.callId);
        }
        break;
      case 'model_call_failed':
        endText();
        if (!event.interrupted)
          chunks.push({ type: 'error', errorText: `The model call failed: ${event.error ?? 'unknown error'}` });
        break;
      case 'end_refused':
        chunks.push({ type: 'data-notice', data: { text: event.text } });
        break;
      case 'verdict': {
        const { callId, tool: toolName, verdict, reasons } = event;
        chunks.push({
          type: 'data-verdict',
          id: `verdict-${callId}`,
          data: { callId, tool: toolName, verdict, reasons },
        });
        if (verdict === 'blocked') {
          tool(callId, toolName);
          const why = reasons.map(({ code, message }) => `[${code}] ${message}`).join('\n');
          settle(callId, {
            type: 'tool-output-error',
            toolCallId: callId,
            errorText: `Refused by the rules:\n${why}`,
            dynamic: true,
          });
        }
        break;
      }
      case 'approvals_requested':
        for (const { callId, tool: toolName, input, reason, destructive, deadline } of event.approvals)
          approval(callId, {
            callId,
            tool: toolName,
            input: valueOf(input),
            reason,
            destructive,
            deadline,
            state: 'requested',
          });
        break;
      case 'approval_decided':
        approval(event.callId, {
          state: event.approved ? 'approved' : 'denied',
          ...(event.reason === undefined ? {} : { decisionReason: event.reason }),
        });
        break;
      case 'approvals_closed':
        for (const { callId, tool: toolName, decision, reason } of event.decisions) {
          approval(callId, { state: decision, ...(reason === undefined ? {} : { decisionReason: reason }) });
          if (decision === 'approved') continue;
          tool(callId, toolName);
          settle(callId, { type: 'tool-output-denied', toolCallId: callId });
        }
        break;
      case 'tool_ended': {
        tool(event.callId, event.tool);
        const output = valueOf(event.output);
        settle(
          event.callId,
          event.isError
            ? { type: 'tool-output-error', toolCallId: event.callId, errorText: String(output), dynamic: true }
            : { type: 'tool-output-available', toolCallId: event.callId, output, dynamic: true },
        );
        break;
      }
      case 'batch_cancelled':
        for (const callId of event.callIds)
          settle(callId, {
            type: 'tool-output-error',
            toolCallId: callId,
            errorText: 'Not run: the user interrupted the session.',
            dynamic: true,
          });
        break;
      case 'interrupt_received':
        chunks.push({ type: 'data-interrupt', data: { message: event.message } });
        break;
      case 'notice':
        chunks.push({ type: 'data-notice', data: { text: event.text } });
        break;
      case 'run_ended':
        endRun(chunks, endStep, finishReasonOf(event.reason), {
          run: event.run,
          reason: event.reason,
          detail: event.detail,
          usage: event.usage,
        });
        run = undefined;
        break;
      case 'store_waiting': {
        const id = storeWaits.get(event.wait) ?? `store-${event.offset}`;
        storeWaits.set(event.wait, id);
        chunks.push({ type: 'data-store', id, data: { state: 'waiting', ...event.problem } });
        break;
      }
      case 'store_back':
        chunks.push({
          type: 'data-store',
          id: storeWaits.get(event.wait) ?? `store-${event.offset}`,
          data: { state: 'back' },
        });
        storeWaits.delete(event.wait);
        break;
      case 'continued_as_new':
        // Waits are numbered per workflow run: the next run numbers them again.
        storeWaits.clear();
        break;
      case 'session_ended':
        chunks.push({ type: 'data-session-ended', data: { status: event.status } });
        break;
      case 'model_call_started':
      case 'batch_started':
      case 'tool_started':
      case 'batch_ended':
      case 'results_appended':
      case 'end_requested':
        break;
      default:
        unhandledEvent(event);
    }
    return chunks;
  };
}

/** The text part of an answer: what was streamed completed to the whole text, or the whole text at once. */
async function answerText(
  event: FeedEventOf<'model_responded'>,
  chunks: UIMessageChunk[],
  streamed: { id: string; written: string } | undefined,
  readText: UIMessageChunkerOptions['readText'],
): Promise<void> {
  if (event.text === undefined) {
    if (streamed) chunks.push({ type: 'text-end', id: streamed.id });
    return;
  }
  const whole = (await readText?.(event.message)) ?? event.text;
  const id = streamed?.id ?? `text-${event.turn}`;
  if (streamed === undefined) chunks.push({ type: 'text-start', id });
  const rest = whole.startsWith(streamed?.written ?? '') ? whole.slice(streamed?.written.length ?? 0) : '';
  if (rest !== '') chunks.push({ type: 'text-delta', id, delta: rest });
  chunks.push({ type: 'text-end', id });
}

function endRun(
  chunks: UIMessageChunk[],
  endStep: () => void,
  finishReason: UIFinishReason,
  ended?: { run: number; reason: RunEndReason; detail?: string | undefined; usage?: UsageTotals | undefined },
): void {
  endStep();
  if (ended) chunks.push({ type: 'data-run-ended', data: ended });
  chunks.push({ type: 'finish', finishReason });
}

function finishReasonOf(reason: RunEndReason): UIFinishReason {
  switch (reason) {
    case 'answered':
    case 'terminal':
      return 'stop';
    case 'interrupted':
      return 'interrupted';
    case 'model_error':
      return 'error';
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** A feed value as the UI shows it: the value, or the preview of one too large for the feed. */
function valueOf(value: FeedValue): unknown {
  return value.truncated ? value.preview : value.value;
}
