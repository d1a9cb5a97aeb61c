import {
  packPreparedCall,
  packedAsModelCall,
  unpackPreparedCall,
  unpackToolOutcome,
  visibleToolMask,
} from '../src/dispatch';
import type { PackedPreparedCall, PreparedCall, ToolCatalog, ToolErrorOutcome } from '../src/dispatch';
import { packContentKey, unpackContentKey, withUsual } from '../src/kernel';
import { readsOutput } from '../src/rules';
import {
  conversationLogKeys,
  modelFinishOutcome,
  unpackStoredRef,
  usualAssistantRef,
  usualContentRef,
  usualContextShown,
  usualFinishReason,
  usualMessageRef,
} from '../src/session';
import type {
  ConversationLog,
  ConversationLogKeys,
  DispatchedCall,
  MessageRef,
  ModelContextView,
} from '../src/session';
import type { CallModelInput, CallModelResult, ExecuteToolInput, ExecutedCall } from '../activities';
import { catalogNames } from './session-state';
import type { SessionState } from './session-state';
import { storeOf } from './wait-for-store';

// The turn's two activities as history carries them: their inputs packed (what the activity knows
// or can derive left out, content keys in base64url) and their results read whole again. A
// payload in its full form, as earlier versions wrote it, reads as it is.

/**
 * The model call's input: the conversation by the keys of its newest segment and of the messages
 * after it, and the visible tools by the catalog's version and a mask of the visible ones (with
 * the session's tool filter and revealed tools, when it has any), so it does not grow with the log
 * or the tools. `inline`: the catalog a model call returned because the worker's had changed; the
 * visible tools then go whole from it, with its names (a turn whose catalog changed under it asks
 * again so, and a catalog that keeps changing cannot hold it up).
 */
export function modelCallInput(
  state: SessionState,
  visible: readonly string[],
  inline: ToolCatalog | undefined,
): CallModelInput {
  const shown = new Set(visible);
  const catalog = catalogNames(state);
  const mask = visibleToolMask(catalog, shown);
  const tools = inline
    ? {
        tools: inline.tools
          .filter((tool) => shown.has(tool.name))
          .map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        catalog,
      }
    : {
        toolset: {
          version: state.catalog.version,
          ...(mask === undefined ? {} : { visible: mask }),
          ...(state.input.tools === undefined ? {} : { filter: state.input.tools }),
          ...(state.revealedTools.length === 0 ? {} : { revealed: [...state.revealedTools] }),
        },
      };
  // The session is the workflow: the activity takes its id from its context.
  return {
    ...storeOf(state),
    turn: state.turnIndex,
    settings: state.input.model,
    // A long system prompt goes inline until a model call stored it, then by its key.
    ...(state.systemKey !== undefined
      ? { systemKey: packContentKey(state.systemKey) }
      : state.input.systemPrompt
        ? { system: state.input.systemPrompt }
        : {}),
    conversation: packedLogKeys(state.log),
    ...tools,
    // Left out when false, as the activity reads it.
    ...(state.interactive ? { interactive: true } : {}),
  };
}

/** The log's keys as the model call's input carries them: packed (`packContentKey`), as the activity reads them. */
function packedLogKeys(log: ConversationLog): ConversationLogKeys {
  const { head, tail } = conversationLogKeys(log);
  return { head: head === null ? null : packContentKey(head), tail: tail.map(packContentKey) };
}

/** The model call's result as the workflow reads it: every packed field filled back in. */
export interface ModelCallResult {
  /** The key the call stored the system prompt under (it came inline, and is long). */
  systemKey?: string;
  response: CallModelResult['response'];
  assistant: MessageRef;
  shown: ModelContextView;
  prepared: (PreparedCall | ToolErrorOutcome)[];
  /** A segment of the log (a content reference). */
  sealed?: NonNullable<ConversationLog['head']>;
}

/**
 * The model call's result whole: the response's usual finish reason, the prepared calls from the
 * model's calls they were packed next to, the keys unpacked, the usual values of the message, of
 * what the model was shown (for `input`'s settings; when the result leaves its size out, the whole
 * of `log`: the log the input named, which the turn changes only once the model answered) and of
 * the sealed segment. A result an earlier version returned whole reads as it is.
 */
export function unpackModelCallResult(
  result: CallModelResult,
  input: CallModelInput,
  log: ConversationLog,
): ModelCallResult {
  const { assistant, shown, prepared, sealed } = result;
  const response = {
    ...result.response,
    finishReason: result.response.finishReason ?? usualFinishReason(result.response.toolCalls.length),
  };
  const callsRun = modelFinishOutcome(response.finishReason, response.toolCalls.length).kind === 'calls';
  return {
    ...(result.systemKey === undefined ? {} : { systemKey: unpackContentKey(result.systemKey) }),
    response,
    assistant: unpackStoredRef<MessageRef>(assistant, usualAssistantRef(response, callsRun)),
    shown: withUsual<ModelContextView>(shown ?? {}, {
      messages: log.count,
      bytes: log.bytes,
      ...usualContextShown(input.settings),
    }),
    // Without the list, every call is as the model made it.
    prepared: (prepared ?? response.toolCalls.map(() => packedAsModelCall)).map((call, index) =>
      call.type === 'prepared-call' ? unpackPreparedCall(call, response.toolCalls[index]) : call,
    ),
    ...(sealed ? { sealed: unpackStoredRef<NonNullable<ConversationLog['head']>>(sealed, usualContentRef) } : {}),
  };
}

/**
 * The tool activity's input: the call packed (its fields at their usual value left out), and
 * whether the session is interactive, a human approved the call and the rules read its output
 * (each left out when false, as the activity reads it). The session is the workflow: the activity
 * takes its id from its context.
 */
export function executeToolInput(state: SessionState, prepared: PreparedCall, approved: boolean): ExecuteToolInput {
  const { turnIndex: turn, interactive } = state;
  const rulesReadOutput = readsOutput(state.rules, prepared.toolName);
  return {
    ...storeOf(state),
    turn,
    ...(interactive ? { interactive } : {}),
    // A tool call's input is a prepared call: its type goes without saying.
    prepared: withoutType(packPreparedCall(prepared)),
    ...(approved ? { approved } : {}),
    ...(rulesReadOutput ? { rulesReadOutput } : {}),
  };
}

function withoutType({ type: _type, ...packed }: PackedPreparedCall): ExecuteToolInput['prepared'] {
  return packed;
}

/**
 * What the tool activity returned for `prepared` (or its record held), whole: a result's outcome
 * when it was left out, the call's id and tool, the message's key and role.
 */
export function unpackExecutedCall(executed: ExecutedCall, prepared: PreparedCall): DispatchedCall {
  const { outcome = { type: 'tool-result' }, message } = executed;
  return {
    outcome: unpackToolOutcome(outcome, prepared),
    ...(message ? { message: unpackStoredRef<MessageRef>(message, usualMessageRef('tool')) } : {}),
  };
}
