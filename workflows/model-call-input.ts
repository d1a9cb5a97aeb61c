import { visibleToolMask } from '../src/dispatch';
import { conversationLogKeys } from '../src/session';
import type { CallModelInput } from '../activities';
import type { SessionState } from './session-state';
import { catalogNames } from './session-state';

/**
 * The model call's input: the conversation by the keys of its newest segment and of the messages
 * after it, and the visible tools by the catalog's version and a mask of the visible ones (with
 * the session's tool filter and revealed tools, when it has any), so it does not grow with the log
 * or the tools. `inline`: the tools go whole, with the catalog's names (a turn whose catalog changed
 * under it asks again so, and a catalog that keeps changing cannot hold it up).
 */
export function modelCallInput(state: SessionState, visible: readonly string[], inline: boolean): CallModelInput {
  const shown = new Set(visible);
  const catalog = catalogNames(state);
  const mask = visibleToolMask(catalog, shown);
  const tools = inline
    ? {
        tools: state.catalog.tools
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
  return {
    sessionId: state.sessionId,
    turn: state.turnIndex,
    settings: state.input.model,
    ...(state.input.systemPrompt ? { system: state.input.systemPrompt } : {}),
    conversation: conversationLogKeys(state.log),
    ...tools,
    interactive: state.interactive,
  };
}
