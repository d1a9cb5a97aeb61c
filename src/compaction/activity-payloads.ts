import type { PreparedCall, ToolErrorOutcome, ToolOutcome } from '../dispatch';
import { resolveContextBudget } from '../model-settings';
import type { ModelFinishReason, ModelResponse, ProposedToolCall } from '../models';
import { assistantMessageText, undecodableProblem } from '../session';
import type { ConversationLogKeys, MessageRef, ModelContextView } from '../session';
import type { ContentRef } from '../store';
import { previewChars, previewOf } from '../text';
import type {
  CallModelInput,
  CallModelResult,
  CatalogChangedResult,
  ExecuteToolInput,
  ExecutedCall,
  ToolsetByVersion,
} from '../../activities';
import { compactContentKey, expandContentKey } from './content-keys';
import { compactPreparedCall, compactToolError, expandPreparedCall, expandToolError } from './compact-prepared-call';
import type { CompactPreparedCall, CompactToolError } from './compact-prepared-call';
import { sameJson, withUsual, withoutUsual } from './usual-values';

/**
 * How one of toolrail's activities carries its input and result through history: compact (the
 * fields that hold their usual value left out), and whole again on the other side. The workflow
 * compacts the input and expands the result; the activity expands the input and compacts the
 * result. Expanding a payload that is whole already returns it as it is.
 */
export interface ActivityPayloadCompaction<Input, Result> {
  compactInput(input: Input): unknown;
  /** `sessionId`: the session's workflow id, which the compact input leaves out. */
  expandInput(compact: unknown, sessionId: string): Input;
  /** `input`: the activity's input, whole. */
  compactResult(result: Result, input: Input): unknown;
  expandResult(compact: unknown, input: Input): Result;
}

/** The session's workflow type: only its activities' payloads are compacted. */
export const sessionWorkflowType = 'agentSession';

/** The compaction of `activityType` when a session workflow runs it; `undefined` for any other activity. */
export function activityPayloadCompaction(
  workflowType: string | undefined,
  activityType: string,
): ActivityPayloadCompaction<unknown, unknown> | undefined {
  if (workflowType !== sessionWorkflowType || !Object.hasOwn(compactions, activityType)) return undefined;
  return compactions[activityType];
}

// The model call: its input without the session id and the usual toolset fields, content keys in
// base64url; its result with each prepared call beside the model's call it came from (the whole
// list left out when every call is as the model made it), and the finish reason, roles, preview
// and counts that go without saying.

type CompactCallModelResult = Omit<CallModelResult, 'response' | 'assistant' | 'shown' | 'prepared' | 'sealed'> & {
  response: Omit<CallModelResult['response'], 'finishReason'> & { finishReason?: ModelFinishReason };
  assistant: Partial<MessageRef>;
  shown: Partial<ModelContextView>;
  prepared?: (CompactPreparedCall | CompactToolError)[];
  sealed?: Partial<ContentRef>;
};

const callModel: ActivityPayloadCompaction<CallModelInput, CallModelResult | CatalogChangedResult> = {
  compactInput({ sessionId: _sessionId, systemKey, conversation, toolset, interactive, ...input }) {
    return {
      ...input,
      ...(systemKey === undefined ? {} : { systemKey: compactContentKey(systemKey) }),
      conversation: mapLogKeys(conversation, compactContentKey),
      ...(toolset === undefined ? {} : { toolset: withoutUsual(toolset, usualToolset) }),
      ...(interactive ? { interactive } : {}),
    };
  },
  expandInput(compact, sessionId) {
    const input = compact as CallModelInput;
    return {
      ...input,
      sessionId: input.sessionId ?? sessionId,
      ...(input.systemKey === undefined ? {} : { systemKey: expandContentKey(input.systemKey) }),
      conversation: mapLogKeys(input.conversation, expandContentKey),
      ...(input.toolset === undefined ? {} : { toolset: withUsual<ToolsetByVersion>(input.toolset, usualToolset) }),
      interactive: input.interactive ?? false,
    };
  },
  compactResult(result, input) {
    if (!('response' in result)) return result;
    const { systemKey, response, assistant, shown, prepared, sealed, ...rest } = result;
    const { toolCalls } = response;
    const compactCalls = prepared.map((entry, index) => compactEntry(entry, toolCalls[index]));
    const asModelMadeThem =
      compactCalls.length === toolCalls.length && compactCalls.every((entry) => Object.keys(entry).length === 0);
    const compact: CompactCallModelResult = {
      ...rest,
      ...(systemKey === undefined ? {} : { systemKey: compactContentKey(systemKey) }),
      response: withoutUsual(response, {
        finishReason: usualFinishReason(toolCalls),
      }) as CompactCallModelResult['response'],
      assistant: compactRef(assistant, usualAssistant(response)),
      shown: withoutUsual(shown, usualShown(input)),
      ...(asModelMadeThem ? {} : { prepared: compactCalls }),
      ...(sealed === undefined ? {} : { sealed: compactRef(sealed, usualSealed) }),
    };
    return compact;
  },
  expandResult(compact, input) {
    if (!isObject(compact) || !('response' in compact)) return compact as CatalogChangedResult;
    const { systemKey, response, assistant, shown, prepared, sealed, ...rest } = compact as CompactCallModelResult;
    const { toolCalls } = response;
    return {
      ...rest,
      ...(systemKey === undefined ? {} : { systemKey: expandContentKey(systemKey) }),
      response: { ...response, finishReason: response.finishReason ?? usualFinishReason(toolCalls) },
      assistant: expandRef<MessageRef>(assistant, usualAssistant(response)),
      shown: withUsual<ModelContextView>(shown, usualShown(input)),
      prepared: (prepared ?? toolCalls.map(() => ({}))).map((entry, index) => expandEntry(entry, toolCalls[index])),
      ...(sealed === undefined ? {} : { sealed: expandRef<ContentRef>(sealed, usualSealed) }),
    };
  },
};

const usualToolset: Partial<ToolsetByVersion> = { filter: null, revealed: [] };
const usualSealed: Partial<ContentRef> = { preview: '' };

/** What the model is usually shown: every message, in the context budget its settings give it. */
function usualShown({ settings }: CallModelInput): Partial<ModelContextView> {
  return {
    previewed: 0,
    omitted: 0,
    ...('provider' in settings ? { budgetBytes: resolveContextBudget(settings) } : {}),
  };
}

/** The reference of a stored response as the response itself says it: its text, else its calls. */
function usualAssistant({ text, toolCalls }: Pick<ModelResponse, 'text' | 'toolCalls'>): Partial<MessageRef> {
  return { role: 'assistant', preview: previewOf(assistantMessageText(text, toolCalls), previewChars) };
}

function mapLogKeys(keys: ConversationLogKeys, map: (key: string) => string): ConversationLogKeys {
  return { head: keys.head === null ? null : map(keys.head), tail: keys.tail.map(map) };
}

/** A content reference without its usual fields, its key in base64url. */
function compactRef<Ref extends ContentRef>(ref: Ref, usual: Partial<Ref>): Partial<Ref> {
  return withoutUsual({ ...ref, key: compactContentKey(ref.key) }, usual);
}

/** The content reference {@link compactRef} made, whole. */
function expandRef<Ref extends ContentRef>(compact: Partial<Ref>, usual: Partial<Ref>): Ref {
  const ref = withUsual<Ref>(compact, usual);
  return { ...ref, key: expandContentKey(ref.key) };
}

/** The finish reason of a response that ended as responses usually do: with its calls, or with its answer. */
function usualFinishReason(toolCalls: readonly ProposedToolCall[]): ModelFinishReason {
  return toolCalls.length > 0 ? 'tool-calls' : 'stop';
}

function compactEntry(
  entry: PreparedCall | ToolErrorOutcome,
  from: ProposedToolCall | undefined,
): CompactPreparedCall | CompactToolError {
  return entry.type === 'prepared-call' ? compactPreparedCall(entry, from) : compactToolError(entry, from);
}

function expandEntry(
  entry: CompactPreparedCall | CompactToolError,
  from: ProposedToolCall | undefined,
): PreparedCall | ToolErrorOutcome {
  return 'type' in entry && entry.type === 'tool-error'
    ? expandToolError(entry, from)
    : expandPreparedCall(entry, from);
}

// The tool call: its input without the session id and the flags that are false, the call compact;
// its result without the id and name of the call it answers (the whole outcome left out when it is
// a result the rules do not read), the message's role, and content keys in base64url.

interface CompactExecutedCall {
  outcome?: Partial<ToolOutcome>;
  message?: Partial<MessageRef>;
}

const executeTool: ActivityPayloadCompaction<ExecuteToolInput, ExecutedCall> = {
  compactInput({ sessionId: _sessionId, call, interactive, approved, rulesReadOutput, ...input }) {
    return {
      ...input,
      call: compactPreparedCall(call),
      ...(interactive ? { interactive } : {}),
      ...(approved ? { approved } : {}),
      ...(rulesReadOutput ? { rulesReadOutput } : {}),
    };
  },
  expandInput(compact, sessionId) {
    const input = compact as Omit<ExecuteToolInput, 'call'> & { call: CompactPreparedCall };
    return {
      ...input,
      sessionId: input.sessionId ?? sessionId,
      call: expandPreparedCall(input.call),
      interactive: input.interactive ?? false,
      approved: input.approved ?? false,
      rulesReadOutput: input.rulesReadOutput ?? false,
    };
  },
  compactResult({ outcome, message }, { call }) {
    const offloaded = 'offloadedTo' in outcome && outcome.offloadedTo !== undefined;
    const compactOutcome = withoutUsual<ToolOutcome>(
      offloaded ? { ...outcome, offloadedTo: compactContentKey(outcome.offloadedTo) } : outcome,
      { callId: call.callId, toolName: call.toolName },
    );
    const compact: CompactExecutedCall = {
      ...(sameJson(compactOutcome, unreadResult) ? {} : { outcome: compactOutcome }),
      ...(message === undefined ? {} : { message: compactRef(message, usualToolMessage) }),
    };
    return compact;
  },
  expandResult(compact, { call }) {
    if (!isObject(compact) || undecodableProblem(compact) !== undefined) return compact as ExecutedCall;
    const { outcome = unreadResult, message } = compact as CompactExecutedCall;
    const whole = withUsual<ToolOutcome>(outcome, { callId: call.callId, toolName: call.toolName });
    return {
      outcome:
        whole.type === 'tool-result' && whole.offloadedTo !== undefined
          ? { ...whole, offloadedTo: expandContentKey(whole.offloadedTo) }
          : whole,
      ...(message === undefined ? {} : { message: expandRef<MessageRef>(message, usualToolMessage) }),
    };
  },
};

const usualToolMessage: Partial<MessageRef> = { role: 'tool' };

/** A result whose output the rules do not read (its output is in the content store only). */
const unreadResult = { type: 'tool-result', output: null } as const;

/** The session's activities whose payloads are compacted, by activity type. */
const compactions: Readonly<Record<string, ActivityPayloadCompaction<unknown, unknown>>> = { callModel, executeTool };

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
