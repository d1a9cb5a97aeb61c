import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation } from '@temporalio/workflow';
import { beginTurn, checkEnd, isRunEnded, narrow } from '../../src/rules';
import { renderToolOutcome } from '../../src/dispatch/render-tool-outcome';
import type { ModelToolSpec } from '../../src/models/model-request';
import type { CallModelResult } from '../../activities/types';
import { loadCatalog, modelActivities } from './call-model-activity';
import { dispatchCalls } from './dispatch-calls';
import { publishSessionState } from './publish-session-state';
import type { SessionContext } from './session-context';
import { traceModelCall } from '../session-tracing';

/** Why a run ended. */
export type RunEndReason =
  'text' | 'terminal' | 'turn_limit' | 'no_tool_allowed' | 'interrupted' | 'new_message' | 'model_error';

/** Model failures that mean the session itself is misconfigured: they fail the workflow loudly. */
const fatalModelErrors = new Set(['SCRIPT_EXHAUSTED', 'CONFIGURATION']);

/**
 * One turn: narrow the catalog by the rules, call the model with the visible tools, dispatch the
 * calls it proposes (validate, approve, run, record) and append every result to the conversation.
 * Returns why the run ended, or `undefined` when it goes on.
 */
export async function runTurn(context: SessionContext): Promise<{ reason: RunEndReason; detail?: string } | undefined> {
  // The catalog is fixed for the turn and may change between turns (tools enabled, MCP servers
  // connected, deferred tools revealed): look again before each turn.
  const loaded = await loadCatalog({
    sessionId: context.sessionId,
    tools: context.input.tools,
    revealed: context.revealedTools,
    ...(context.catalog.version ? { knownVersion: context.catalog.version } : {}),
  });
  if (!('unchanged' in loaded)) context.catalog = loaded;
  context.turnIndex = context.counters.turns;
  context.counters.turns += 1;
  context.turnsInRun += 1;
  context.turnsThisExecution += 1;
  context.ruleState = beginTurn(context.rules, context.ruleState);
  const catalog = context.catalogNames();
  const narrowed = narrow(context.rules, context.ruleState, catalog);
  if (narrowed.ended)
    return { reason: 'no_tool_allowed', detail: 'the rules leave no tool the model may call, and the run may not end' };
  const visible = new Set(narrowed.visible);
  const tools: ModelToolSpec[] = context.catalog.tools
    .filter((tool) => visible.has(tool.name))
    .map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

  context.status = 'thinking';
  publishSessionState(context);
  const result = await traceModelCall(context, tools.length, () => callModelInterruptibly(context, tools, catalog));
  if ('interrupted' in result) return { reason: 'interrupted' };
  if ('failed' in result) return { reason: 'model_error', detail: result.failed };

  const { response, prepared } = result;
  context.conversation.push({
    role: 'assistant',
    ...(response.text ? { text: response.text } : {}),
    toolCalls: response.toolCalls,
  });
  context.note({
    kind: 'model',
    ...(response.text ? { text: response.text } : {}),
    visible: narrowed.visible,
    calls: response.toolCalls.map((call) => ({ callId: call.id, tool: call.name, args: call.args })),
  });

  if (response.toolCalls.length === 0) {
    const end = checkEnd(context.rules, context.ruleState);
    if (end.endsRun) return { reason: 'text' };
    const why = end.reasons.map((reason) => `- [${reason.code}] ${reason.message}`).join('\n');
    const text = `[toolrail] The run cannot end yet:\n${why}`;
    context.conversation.push({ role: 'user', text });
    context.note({ kind: 'notice', text });
    return undefined;
  }

  const outcomes = await dispatchCalls(context, prepared);
  for (const outcome of outcomes) {
    const content = renderToolOutcome(outcome);
    const isError = outcome.type === 'tool-error';
    context.conversation.push({ role: 'tool', callId: outcome.callId, toolName: outcome.toolName, content, isError });
    context.note({
      kind: 'tool',
      callId: outcome.callId,
      tool: outcome.toolName,
      isError,
      ...(outcome.type === 'tool-error' ? { code: outcome.code } : {}),
      content,
    });
  }
  if (context.interrupt) return { reason: 'interrupted' };
  if (isRunEnded(context.ruleState)) return { reason: 'terminal' };
  return undefined;
}

/** Calls the model inside a cancellation scope that an interrupt cancels; a failure comes back with its message. */
async function callModelInterruptibly(
  context: SessionContext,
  tools: ModelToolSpec[],
  catalog: string[],
): Promise<CallModelResult | { interrupted: true } | { failed: string }> {
  const scope = new CancellationScope();
  context.modelScope = scope;
  try {
    return await scope.run(() => modelCall(context, tools, catalog));
  } catch (error) {
    if (isCancellation(error) && context.interrupt) return { interrupted: true };
    const cause = error instanceof ActivityFailure ? error.cause : error;
    if (cause instanceof ApplicationFailure && cause.type && fatalModelErrors.has(cause.type)) {
      throw ApplicationFailure.nonRetryable(`model call failed: ${cause.message}`, cause.type);
    }
    return { failed: cause instanceof Error ? cause.message : String(cause) };
  } finally {
    context.modelScope = undefined;
  }
}

function modelCall(context: SessionContext, tools: ModelToolSpec[], catalog: string[]): Promise<CallModelResult> {
  const { callModel } = modelActivities(context.limits.modelTimeoutMs);
  return callModel({
    sessionId: context.sessionId,
    turn: context.turnIndex,
    settings: context.input.model,
    ...(context.input.systemPrompt ? { system: context.input.systemPrompt } : {}),
    messages: context.conversation,
    tools,
    catalog,
    interactive: context.interactive,
  });
}
