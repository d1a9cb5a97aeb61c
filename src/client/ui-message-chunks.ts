import { unhandledEvent } from '../session';
import type { FeedEvent, FeedEventOf, FeedValue, RunEndReason, UsageTotals } from '../session';
import type { ContentRef } from '../store';

/**
 * One chunk of the AI SDK's UI message stream (protocol `v1`, what `useChat` and
 * `readUIMessageStream` read): the parts toolrail writes. A session's feed becomes one assistant
 * message per run; tool calls are dynamic tool parts with the AI SDK's own approvals; what the AI SDK
 * has no part for is a `data-*` part (`data-verdict`, `data-tools`, `data-shadow`, `data-run`,
 * `data-run-ended`, `data-notice`, `data-interrupt`, `data-message`, `data-model`, `data-store`,
 * `data-worker`, `data-session-ended`).
 */
export type UIMessageChunk =
  | { type: 'start'; messageId: string }
  | { type: 'finish'; finishReason: UIFinishReason }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      dynamic: true;
      toolMetadata?: { approval: { destructive: boolean; deadline: number } };
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string; reason?: string }
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'error'; errorText: string }
  | { type: `data-${string}`; id?: string; data: unknown };

/** Why a run's message finished, in the UI message stream's terms (`tool-calls`: it waits for approvals). */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'interrupted' | 'error' | 'other';

/** Options of {@link uiMessageChunker}. */
export interface UIMessageChunkerOptions {
  /** The session: the runs' message ids are `<sessionId>/run-<n>`. */
  sessionId: string;
  /**
   * The whole text of a stored assistant message (e.g. `SessionHandle.readText`), so each text part
   * ends complete; without it a text part ends with what was streamed, or the feed's preview.
   */
  readText?: (ref: ContentRef) => Promise<string | undefined>;
  /**
   * The output of a stored tool result (e.g. `SessionHandle.readToolOutput`): the value the tool
   * returned, or its preview and key when it was offloaded. Without it (or when it answers
   * `undefined`), an output the feed does not hold whole is the preview of its text.
   */
  readToolOutput?: (ref: ContentRef) => Promise<{ output: unknown } | undefined>;
}

/** Options of one call of a chunker. */
export interface ChunkOptions {
  /** Only follow the event (a reader that already has its chunks): no chunks, nothing read from the store. */
  quiet?: boolean;
}

/** The approval id of a call waiting for a human, in the UI message stream: `approval-<callId>`. */
export function approvalIdOf(callId: string): string {
  return `approval-${callId}`;
}

/** The message id of a session's run in the UI message stream: `<sessionId>/run-<n>`. */
export function runMessageIdOf(sessionId: string, run: number): string {
  return `${sessionId}/run-${run}`;
}

/**
 * Turns a session's feed events, in order, into UI message stream chunks: returns the chunks of
 * each event (none for some). It may start anywhere in the feed: a run or a step it joins in the
 * middle is opened first. Text: `text-delta`s as the model streams, completed when it answers.
 * Tools (dynamic tool parts, each opened when the session takes the call up: refused, put up for
 * approval, or run): a refused call is an `output-error` with the rules' reasons; a call that waits
 * for a human is the AI SDK's own approval (`tool-approval-request`, then `tool-approval-response`
 * with the decision and `tool-output-denied` when not approved); a call that ran has its output,
 * the value the tool returned (read with `readToolOutput`). The rules' verdicts, hidden tools, what
 * shadow rules would have done and waits for the content store are `data-*` parts; a wait for the
 * store keeps one id, so a reader shows its latest state.
 */
export function uiMessageChunker({
  sessionId,
  readText,
  readToolOutput,
}: UIMessageChunkerOptions): (event: FeedEvent, options?: ChunkOptions) => Promise<UIMessageChunk[]> {
  let run: number | undefined;
  let step = false;
  let text: { id: string; turn: number; written: string } | undefined;
  // The calls the model proposed (their inputs), and what the stream has said of each.
  const proposed = new Map<string, { tool: string; input: unknown }>();
  const opened = new Set<string>();
  const settled = new Set<string>();
  const asked = new Set<string>();
  const answered = new Set<string>();
  // Calls that ended while the store could not take their result: their output comes with `results_appended`.
  const unstored = new Map<string, FeedValue>();
  // A wait for the content store keeps one part id, from its first `store_waiting` to its `store_back`.
  const storeWaits = new Map<number, string>();

  return async (event, { quiet = false } = {}) => {
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
    const open = (
      callId: string,
      toolName: string,
      input?: unknown,
      approval?: { destructive: boolean; deadline: number },
    ): void => {
      if (opened.has(callId)) return;
      opened.add(callId);
      startStep();
      chunks.push({
        type: 'tool-input-available',
        toolCallId: callId,
        toolName,
        input: proposed.get(callId)?.input ?? input ?? null,
        dynamic: true,
        ...(approval ? { toolMetadata: { approval } } : {}),
      });
    };
    const settle = (callId: string, toolName: string, chunk: UIMessageChunk): void => {
      if (settled.has(callId)) return;
      open(callId, toolName);
      settled.add(callId);
      chunks.push(chunk);
    };
    const ask = (callId: string, toolName: string, reason?: string): void => {
      if (asked.has(callId)) return;
      open(callId, toolName);
      asked.add(callId);
      chunks.push({
        type: 'tool-approval-request',
        approvalId: approvalIdOf(callId),
        toolCallId: callId,
        ...(reason === undefined ? {} : { reason }),
      });
    };
    const answer = (callId: string, toolName: string, approved: boolean, reason?: string): void => {
      if (answered.has(callId)) return;
      ask(callId, toolName);
      answered.add(callId);
      chunks.push({
        type: 'tool-approval-response',
        approvalId: approvalIdOf(callId),
        approved,
        ...(reason === undefined ? {} : { reason }),
      });
      if (!approved) settle(callId, toolName, { type: 'tool-output-denied', toolCallId: callId });
    };
    const output = async (callId: string, toolName: string, value: FeedValue, ref: ContentRef | undefined) => {
      const read = quiet || ref === undefined ? undefined : await readToolOutput?.(ref);
      const whole = read ? read.output : value.truncated ? value.preview : value.value;
      settle(callId, toolName, { type: 'tool-output-available', toolCallId: callId, output: whole, dynamic: true });
    };

    if (event.run === 0 || (event.type === 'session_ended' && run === undefined)) {
      if (event.type === 'session_ended') chunks.push({ type: 'data-session-ended', data: { status: event.status } });
      return quiet ? [] : chunks;
    }
    if (run !== event.run && event.type !== 'session_ended') {
      if (run !== undefined) endRun(chunks, endStep, 'other');
      run = event.run;
      chunks.push({ type: 'start', messageId: runMessageIdOf(sessionId, event.run) });
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
      case 'rule_shadowed': {
        // What shadow rules would have done: a data part only; the tools, the calls and the answer go on as they do.
        const { type: _type, offset: _offset, at: _at, run: _run, turn, ...shadow } = event;
        const about =
          shadow.kind === 'refused' || shadow.kind === 'approval' ? shadow.callId : `${shadow.kind}-${turn}`;
        chunks.push({ type: 'data-shadow', id: `shadow-${about}`, data: { turn, ...shadow } });
        break;
      }
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
        await answerText(event, chunks, text?.turn === event.turn ? text : undefined, quiet ? undefined : readText);
        text = undefined;
        if (event.finishReason !== undefined || event.usage !== undefined) {
          const { finishReason, rawFinishReason, usage } = event;
          chunks.push({
            type: 'data-model',
            id: `model-${event.turn}`,
            data: { turn: event.turn, finishReason, rawFinishReason, usage },
          });
        }
        for (const call of event.calls) proposed.set(call.callId, { tool: call.tool, input: valueOf(call.args) });
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
          const why = reasons.map(({ code, message }) => `[${code}] ${message}`).join('\n');
          settle(callId, toolName, {
            type: 'tool-output-error',
            toolCallId: callId,
            errorText: `Refused by the rules:\n${why}`,
            dynamic: true,
          });
        }
        break;
      }
      case 'approvals_requested':
        for (const { callId, tool: toolName, input, reason, destructive, deadline } of event.approvals) {
          open(callId, toolName, valueOf(input), { destructive, deadline });
          ask(callId, toolName, reason);
        }
        break;
      case 'approval_decided': {
        const toolName = proposed.get(event.callId)?.tool ?? 'unknown';
        answer(event.callId, toolName, event.approved, event.reason);
        break;
      }
      case 'approvals_closed':
        for (const { callId, tool: toolName, decision, reason } of event.decisions)
          answer(callId, toolName, decision === 'approved', reason ?? undecidedReason(decision));
        break;
      case 'batch_started':
        for (const callId of event.callIds) open(callId, proposed.get(callId)?.tool ?? 'unknown');
        break;
      case 'tool_started':
        open(event.callId, event.tool);
        break;
      case 'tool_ended':
        if (event.isError)
          settle(event.callId, event.tool, {
            type: 'tool-output-error',
            toolCallId: event.callId,
            errorText: String(valueOf(event.output)),
            dynamic: true,
          });
        else if (event.output.truncated && event.ref === undefined) {
          open(event.callId, event.tool);
          unstored.set(event.callId, event.output);
        } else await output(event.callId, event.tool, event.output, event.ref);
        break;
      case 'results_appended':
        for (const { callId, tool: toolName, ref } of event.results) {
          const value = unstored.get(callId);
          if (value === undefined) continue;
          unstored.delete(callId);
          await output(callId, toolName, value, ref);
        }
        break;
      case 'batch_cancelled':
        for (const callId of event.callIds)
          settle(callId, proposed.get(callId)?.tool ?? 'unknown', {
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
        for (const [callId, value] of unstored)
          await output(callId, proposed.get(callId)?.tool ?? 'unknown', value, undefined);
        unstored.clear();
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
      case 'worker_waiting': {
        const { type: _type, offset: _offset, run: _run, ...wait } = event;
        chunks.push({ type: 'data-worker', id: `worker-${event.callId}`, data: { state: 'waiting', ...wait } });
        break;
      }
      case 'worker_back':
        chunks.push({ type: 'data-worker', id: `worker-${event.callId}`, data: { state: 'back' } });
        break;
      case 'continued_as_new':
        // Waits are numbered per workflow run: the next run numbers them again.
        storeWaits.clear();
        break;
      case 'session_ended':
        chunks.push({ type: 'data-session-ended', data: { status: event.status } });
        break;
      case 'model_call_started':
      case 'batch_ended':
      case 'end_requested':
        break;
      default:
        unhandledEvent(event);
    }
    return quiet ? [] : chunks;
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

/** Why a call that no human decided was not run. */
function undecidedReason(decision: 'approved' | 'denied' | 'timed_out' | 'interrupted'): string | undefined {
  if (decision === 'timed_out') return 'No one decided in time.';
  if (decision === 'interrupted') return 'The user interrupted the session.';
  return undefined;
}

/** A feed value as the UI shows it: the value, or the preview of one too large for the feed. */
function valueOf(value: FeedValue): unknown {
  return value.truncated ? value.preview : value.value;
}
