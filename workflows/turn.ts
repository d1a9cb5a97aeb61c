import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import { ReasonCode, beginTurn, checkEnd, narrow } from '../src/rules';
import { toolResultMessage } from '../src/dispatch';
import type { DispatchedCall, PreparedCall, ToolErrorOutcome } from '../src/dispatch';
import type { CarriedTurn, RunEndReason } from '../src/session';
import { previewOf } from '../src/kernel';
import type { ModelToolSpec } from '../src/models';
import type { CallModelResult, SessionActivities } from '../activities';
import { dispatchCalls } from './batches';
import {
  appendMessages,
  catalogNames,
  continueAsNewDue,
  endRun,
  note,
  setStatus,
  storeMessages,
} from './session-state';
import type { SessionState } from './session-state';
import { traceModelCall, traceTurn } from './session-tracing';
import { responseNote, takeModelResponse } from './model-response';

/** Model failures that mean the session itself is misconfigured: they fail the workflow loudly. */
const fatalModelErrors = new Set(['SCRIPT_EXHAUSTED', 'CONFIGURATION']);

/** Where continue-as-new may happen: before a turn, after the model call, after every batch. */
export type ContinueIfDue = (turn?: CarriedTurn) => Promise<void>;

/** Why a run ends, with what to show for it. */
type RunEnd = { reason: RunEndReason; detail?: string } | undefined;

/**
 * One run: turns until it ends (an answer the rules accept, a terminal tool, the turn limit, no
 * tool allowed, a model failure, an interrupt, or a new user message, which starts the next run).
 * `continueIfDue` is called before each turn and between the batches of a turn: the session
 * continues as new there when it is due. `resume` is a turn continue-as-new interrupted.
 */
export async function runTurns(state: SessionState, continueIfDue: ContinueIfDue, resume?: CarriedTurn): Promise<void> {
  if (resume !== undefined) {
    // The catalog is looked up again (it is not carried); the turn's calls were already prepared.
    await refreshCatalog(state);
    state.turnIndex = resume.turnIndex;
    const end = await finishTurn(state, resume.remaining, continueIfDue);
    if (end !== undefined) return endRun(state, end.reason, end.detail);
  }
  for (;;) {
    if (state.run.turns > 0 && state.queuedMessages.length > 0) return endRun(state, 'new_message');
    await continueIfDue();
    const end = await traceTurn(state, () => runTurn(state, continueIfDue));
    if (end !== undefined) return endRun(state, end.reason, end.detail);
  }
}

/**
 * One turn, in the order of the architecture's diagram: load the catalog → narrow it by the rules
 * → call the model with the visible tools → dispatch its calls (validate, permission, partition,
 * batches, record: `batches.ts`) → append every result to the conversation → loop control.
 * Returns why the run ended, or `undefined` when it goes on.
 */
async function runTurn(state: SessionState, continueIfDue: ContinueIfDue): Promise<RunEnd> {
  state.ruleState = beginTurn(state.rules, state.ruleState);
  if (state.ruleState.ended !== null) return engineEnd(state, state.ruleState.ended);
  await refreshCatalog(state);
  state.turnIndex = state.counters.turns;
  state.counters.turns += 1;
  state.run.turns += 1;
  state.turnsThisExecution += 1;

  // Narrow: only the tools the rules allow now are shown to the model.
  const catalog = catalogNames(state);
  const narrowed = narrow(state.rules, state.ruleState, catalog);
  if (narrowed.ended)
    return { reason: 'no_tool_allowed', detail: 'the rules leave no tool the model may call, and the run may not end' };
  const visible = new Set(narrowed.visible);
  const tools: ModelToolSpec[] = state.catalog.tools
    .filter((tool) => visible.has(tool.name))
    .map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

  // Model: an interrupt cancels the call's scope (see `interruptRun`).
  setStatus(state, 'thinking');
  const result = await traceModelCall(state, tools.length, () => callModelInterruptibly(state, tools, catalog));
  if ('interrupted' in result) return { reason: 'interrupted' };
  if ('failed' in result) return { reason: 'model_error', detail: result.failed };
  const { response, prepared, assistant, shown } = result;
  const outcome = takeModelResponse(state, response);
  state.stepsThisExecution += 1;
  await appendMessages(state, [assistant]);
  note(state, {
    kind: 'model',
    ...(response.text ? { text: assistant.preview } : {}),
    visible: narrowed.visible,
    calls: response.toolCalls.map((call) => ({ callId: call.id, tool: call.name, args: call.args })),
    ref: assistant,
    shown,
    ...responseNote(response),
  });
  // The model's own finish: cut off, refused or filtered ends the run (no call runs); a pause asks again.
  if (outcome.kind === 'end') return { reason: outcome.reason, detail: outcome.detail };
  if (outcome.kind === 'continue') return undefined;

  // A text answer ends the run when the rules let it; otherwise the model is told why not.
  if (outcome.kind === 'answer') {
    const end = checkEnd(state.rules, state.ruleState);
    if (end.endsRun) {
      const limited = end.reasons.some((reason) => reason.code === ReasonCode.turnLimit);
      return engineEnd(state, limited ? 'turn_limit' : 'answered');
    }
    const why = end.reasons.map((reason) => `- [${reason.code}] ${reason.message}`).join('\n');
    const text = `[toolrail] The run cannot end yet:\n${why}`;
    await appendMessages(state, await storeMessages(state, [{ role: 'user', text }]));
    note(state, { kind: 'notice', text });
    return undefined;
  }

  return finishTurn(state, prepared, continueIfDue);
}

/**
 * The rest of a turn once the model proposed its calls: validate, ask, partition, run the batches
 * and record (`batches.ts`); after each batch the settled results join the conversation in call
 * order; then loop control.
 */
async function finishTurn(
  state: SessionState,
  prepared: readonly (PreparedCall | ToolErrorOutcome)[],
  continueIfDue: ContinueIfDue,
): Promise<RunEnd> {
  const unsettled = await dispatchCalls(state, prepared, async (settle) => {
    state.stepsThisExecution += 1;
    // Between batches the session may continue as new: the settled results join the conversation first.
    if (!continueAsNewDue(state)) return;
    const { settled, remaining } = settle();
    await appendResults(state, settled);
    await continueIfDue({ turnIndex: state.turnIndex, remaining });
  });
  await appendResults(state, unsettled);
  // Loop control: the user's interrupt, or the engine's end of the run (a terminal tool, a limit).
  if (state.interrupt) return { reason: 'interrupted' };
  if (state.ruleState.ended !== null) return engineEnd(state, state.ruleState.ended);
  return undefined;
}

/** Results join the conversation in call order: executed calls stored theirs; the workflow's own (refusals, errors) are stored here. */
async function appendResults(state: SessionState, dispatched: readonly DispatchedCall[]): Promise<void> {
  const made = dispatched.map(({ outcome, message }) =>
    message === undefined ? toolResultMessage(outcome) : undefined,
  );
  const unmade = made.filter((message) => message !== undefined);
  const stored = unmade.length > 0 ? await storeMessages(state, unmade) : [];
  const messages = dispatched.map(({ message }) => message ?? stored.shift());
  await appendMessages(
    state,
    messages.filter((message) => message !== undefined),
  );
  dispatched.forEach(({ outcome }, index) => {
    const message = messages[index];
    // The workflow's own results are short and worth reading in full (up to 1,000 characters); others show their preview.
    const content = made[index] ? previewOf(made[index].content, 1_000) : (message?.preview ?? '');
    note(state, {
      kind: 'tool',
      callId: outcome.callId,
      tool: outcome.toolName,
      isError: outcome.type === 'tool-error',
      ...(outcome.type === 'tool-error' ? { code: outcome.code } : {}),
      content,
      ...(message ? { ref: message } : {}),
    });
  });
}

/** The turn's catalog: looked up again before each turn (tools enabled, MCP servers connected, deferred tools revealed). */
async function refreshCatalog(state: SessionState): Promise<void> {
  const loaded = await loadCatalog({
    sessionId: state.sessionId,
    tools: state.input.tools,
    revealed: state.revealedTools,
    ...(state.catalog.version ? { knownVersion: state.catalog.version } : {}),
  });
  if (!('unchanged' in loaded)) state.catalog = loaded;
}

/** The model call in a cancellation scope that an interrupt cancels; a failure comes back with its message. */
async function callModelInterruptibly(
  state: SessionState,
  tools: ModelToolSpec[],
  catalog: string[],
): Promise<CallModelResult | { interrupted: true } | { failed: string }> {
  const scope = new CancellationScope();
  state.modelScope = scope;
  try {
    const { callModel } = modelActivities(state.limits.modelTimeoutMs);
    return await scope.run(() =>
      callModel({
        sessionId: state.sessionId,
        turn: state.turnIndex,
        settings: state.input.model,
        ...(state.input.systemPrompt ? { system: state.input.systemPrompt } : {}),
        log: state.log,
        tools,
        catalog,
        interactive: state.interactive,
      }),
    );
  } catch (error) {
    if (isCancellation(error) && state.interrupt) return { interrupted: true };
    const cause = error instanceof ActivityFailure ? error.cause : error;
    if (cause instanceof ApplicationFailure && cause.type && fatalModelErrors.has(cause.type)) {
      throw ApplicationFailure.nonRetryable(`model call failed: ${cause.message}`, cause.type);
    }
    return { failed: cause instanceof Error ? cause.message : String(cause) };
  } finally {
    state.modelScope = undefined;
  }
}

/** The end the rule engine recorded (a terminal tool, the turn limit, an accepted answer), as the run's end. */
function engineEnd(state: SessionState, reason: RunEndReason): { reason: RunEndReason; detail?: string } {
  return reason === 'turn_limit'
    ? { reason, detail: `${state.rules.settings.maxTurnsPerRun} model calls in this run` }
    : { reason };
}

/**
 * The model call as an activity. Cancelling it (an interrupt) does not wait for the activity to
 * acknowledge: a model call has no side effects, the activity aborts its HTTP request at its next
 * heartbeat, and the workflow moves on at once.
 */
function modelActivities(timeoutMs: number): Pick<SessionActivities, 'callModel'> {
  return proxyActivities<SessionActivities>({
    startToCloseTimeout: timeoutMs,
    heartbeatTimeout: 30_000,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    retry: { maximumAttempts: 5, initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 30_000 },
  });
}

/** Loading the catalog is a quick lookup in the worker's registry: a local activity (one marker event). */
const { loadCatalog } = proxyLocalActivities<SessionActivities>({
  startToCloseTimeout: 30_000,
  retry: { maximumAttempts: 3 },
});
