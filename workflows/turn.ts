import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import { ReasonCode, checkEnd } from '../src/rules';
import { toolResultMessage } from '../src/dispatch';
import type { ToolCatalog } from '../src/dispatch';
import { modelFinishDetail, modelFinishOutcome } from '../src/session';
import type { RunEndReason } from '../src/session';
import { previewOf } from '../src/text';
import type { CallModelResult, CatalogChangedResult, SessionActivities } from '../activities';
import { runBatch } from './batch';
import { changeCatalog } from './change-catalog';
import { modelCallInput } from './model-call-input';
import { narrowedCatalog } from './narrowed-catalog';
import { emitShadowed, traced } from './session';
import type { Session } from './session';
import { logIsFull, sealLog, storeMessages } from './store-messages';
import { withStore } from './with-store';

/** Model failures that mean the session itself is misconfigured: they fail the workflow loudly. */
const fatalModelErrors = new Set(['SCRIPT_EXHAUSTED', 'CONFIGURATION']);

/** Why a run ends, with what to show for it; `undefined`: the run goes on. */
export type RunEnd = { reason: RunEndReason; detail?: string } | undefined;

/**
 * One turn, top to bottom: the rules begin the turn → load the catalog → narrow it by the rules →
 * call the model with the visible tools → dispatch its calls batch by batch (`batch.ts`: validate,
 * permission, approval, run, record) → the results join the conversation in call order → loop
 * control. A turn continue-as-new carried over resumes at its next batch. It yields between
 * batches: there, and only there within a turn, the session may continue as new. Returns why the
 * run ended, or `undefined` when it goes on.
 */
export async function* runTurn(session: Session): AsyncGenerator<void, RunEnd> {
  const { state } = session;
  if (state.turn === undefined) {
    session.emit({ type: 'turn_started', turn: state.counters.turns });
    if (state.ruleState.ended !== null) return engineEnd(session, state.ruleState.ended);
    // The catalog is looked up when the workflow run has none yet (or tool_search revealed tools);
    // otherwise the model call checks it is still current.
    if (state.catalog.version === '') await refreshCatalog(session);

    // Narrow: only the tools the rules allow now are shown to the model. Should the worker's catalog
    // have changed since, the model call brings the current one back instead of an answer, and the
    // turn narrows that one (then its tools go whole, so a catalog that keeps changing never holds it up).
    let result: Awaited<ReturnType<typeof callModelInterruptibly>>;
    let returned: ToolCatalog | undefined;
    for (;;) {
      const narrowed = narrowedCatalog(state);
      const { visible, hidden, ended } = narrowed;
      session.emit({ type: 'tools_narrowed', visible, hidden });
      emitShadowed(session, { narrowed });
      if (ended)
        return {
          reason: 'no_tool_allowed',
          detail: 'the rules leave no tool the model may call, and the run may not end',
        };
      // Model: an interrupt cancels the call's scope (see `interruptRun`).
      session.emit({ type: 'model_call_started', tools: visible.length });
      result = await callModelInterruptibly(session, visible, returned);
      if (!('catalogChanged' in result)) break;
      returned = result.catalogChanged;
      changeCatalog(session, returned);
    }
    if ('interrupted' in result) {
      session.emit({ type: 'model_call_failed', interrupted: true });
      return { reason: 'interrupted' };
    }
    if ('failed' in result) {
      session.emit({ type: 'model_call_failed', interrupted: false, error: result.failed });
      return { reason: 'model_error', detail: result.failed };
    }
    const { response, prepared, assistant, shown, sealed, systemKey } = result;
    const { finishReason, rawFinishReason, usage } = response;
    session.emit({
      type: 'model_responded',
      ...(response.text ? { text: assistant.preview } : {}),
      calls: response.toolCalls.map((call) => ({ callId: call.id, tool: call.name, args: call.args })),
      prepared,
      message: assistant,
      shown,
      finishReason,
      ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
      ...(usage === undefined ? {} : { usage }),
      ...(sealed ? { sealed } : {}),
      ...(systemKey === undefined ? {} : { systemKey }),
    });
    if (logIsFull(session.state)) await sealLog(session);

    // What the model said: cut off, refused or filtered ends the run (none of its calls runs); a pause asks again.
    const outcome = modelFinishOutcome(finishReason, response.toolCalls.length);
    if (outcome.kind === 'end') return { reason: outcome.reason, detail: modelFinishDetail(outcome.reason, response) };
    if (outcome.kind === 'continue') return undefined;

    // A text answer ends the run when the rules let it; otherwise the model is told why not.
    if (outcome.kind === 'answer') {
      const end = checkEnd(state.rules, state.ruleState);
      emitShadowed(session, { end });
      if (end.endsRun) {
        const limited = end.reasons.some((reason) => reason.code === ReasonCode.turnLimit);
        return engineEnd(session, limited ? 'turn_limit' : 'answered');
      }
      const why = end.reasons.map((reason) => `- [${reason.code}] ${reason.message}`).join('\n');
      const text = `[toolrail] The run cannot end yet:\n${why}`;
      const [message] = await storeMessages(session, [{ role: 'user', text }]);
      if (message === undefined) throw new Error('the content store returned no reference for the message');
      session.emit({ type: 'end_refused', text, message });
      if (logIsFull(session.state)) await sealLog(session);
      return undefined;
    }
  } else {
    // A turn continue-as-new carried over: the catalog is looked up again (it is not carried).
    session.emit({ type: 'turn_started', turn: state.turn.turnIndex, resumed: true });
    await refreshCatalog(session);
  }

  // Dispatch: batch after batch; between them the session may continue as new.
  while (hasCallsToRun(session)) {
    await runBatch(session);
    if (hasCallsToRun(session) && state.interrupt === undefined) yield;
  }
  await appendResults(session);
  // Loop control: the user's interrupt, or the engine's end of the run (a terminal tool, a limit).
  if (state.interrupt) return { reason: 'interrupted' };
  if (state.ruleState.ended !== null) return engineEnd(session, state.ruleState.ended);
  return undefined;
}

function hasCallsToRun({ state }: Session): boolean {
  return state.turn?.remaining.some((call) => call.type === 'prepared-call') ?? false;
}

/**
 * The settled results join the conversation in call order: executed calls stored theirs; the
 * workflow's own (refusals, errors) are stored here. The turn's end, or continue-as-new, calls it.
 */
export async function appendResults(session: Session): Promise<void> {
  const settled = session.state.turn?.settled ?? [];
  if (settled.length === 0) return;
  const made = settled.map(({ outcome, message }) => (message === undefined ? toolResultMessage(outcome) : undefined));
  const unmade = made.filter((message) => message !== undefined);
  const stored = unmade.length > 0 ? await storeMessages(session, unmade) : [];
  const results = settled.map(({ outcome, message }, index) => {
    const ref = message ?? stored.shift();
    const own = made[index];
    return {
      callId: outcome.callId,
      tool: outcome.toolName,
      isError: outcome.type === 'tool-error',
      ...(outcome.type === 'tool-error' ? { code: outcome.code } : {}),
      // The workflow's own results are short and worth reading in full (up to 1,000 characters);
      // others show their preview.
      content: own ? previewOf(own.content, 1_000) : (ref?.preview ?? ''),
      ...(ref ? { message: ref } : {}),
    };
  });
  session.emit({ type: 'results_appended', results });
  if (logIsFull(session.state)) await sealLog(session);
}

/**
 * The turn's catalog: looked up again before each turn (tools enabled, MCP servers connected,
 * deferred tools revealed).
 */
async function refreshCatalog(session: Session): Promise<void> {
  const { sessionId, input, revealedTools, catalog } = session.state;
  const loaded = await loadCatalog({
    sessionId,
    tools: input.tools,
    revealed: [...revealedTools],
    ...(catalog.version ? { knownVersion: catalog.version } : {}),
  });
  if (!('unchanged' in loaded)) changeCatalog(session, loaded);
}

/**
 * The model call (input: `modelCallInput`) in a cancellation scope that an interrupt cancels; a
 * failure comes back with its message.
 */
async function callModelInterruptibly(
  session: Session,
  visible: readonly string[],
  inline: ToolCatalog | undefined,
): Promise<CallModelResult | CatalogChangedResult | { interrupted: true } | { failed: string }> {
  const { state, scopes } = session;
  const scope = new CancellationScope();
  scopes.model = scope;
  try {
    const { callModel } = modelActivities(state.limits.modelTimeoutMs);
    const input = modelCallInput(state, visible, inline);
    // The model call reads the conversation from the content store: while the store fails, it waits
    // (an interrupt still ends it).
    return await scope.run(() => withStore(session, () => traced(session, 'model', () => callModel(input))));
  } catch (error) {
    if (isCancellation(error) && state.interrupt) return { interrupted: true };
    const cause = error instanceof ActivityFailure ? error.cause : error;
    if (cause instanceof ApplicationFailure && cause.type && fatalModelErrors.has(cause.type)) {
      throw ApplicationFailure.nonRetryable(`model call failed: ${cause.message}`, cause.type);
    }
    return { failed: cause instanceof Error ? cause.message : String(cause) };
  } finally {
    scopes.model = undefined;
  }
}

/** The end the rule engine recorded (a terminal tool, the turn limit, an accepted answer), as the run's end. */
function engineEnd({ state }: Session, reason: RunEndReason): RunEnd {
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
