import { visibleToolMask } from '../src/dispatch';
import type { ToolCatalog } from '../src/dispatch';
import { conversationLogKeys } from '../src/session';
import type { CallModelInput } from '../activities';
import { catalogNames } from './narrowed-catalog';
import type { SessionState } from './session-state';
import { sessionStoreInput } from './with-store';

/**
 * The model call's input: the conversation by the keys of its newest segment and of the messages
 * after it, and the visible tools by the catalog's version and a mask of the visible ones, so it
 * does not grow with the log or the tools. `inline`: the catalog a model call returned because the
 * worker's had changed; the visible tools then go whole from it, with its names (a turn whose
 * catalog changed under it asks again so, and a catalog that keeps changing cannot hold it up).
 */
export function modelCallInput(
  state: SessionState,
  visible: readonly string[],
  inline: ToolCatalog | undefined,
): CallModelInput {
  const shown = new Set(visible);
  const catalog = catalogNames(state);
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
          visible: visibleToolMask(catalog, shown),
          filter: state.input.tools ?? null,
          revealed: [...state.revealedTools],
        },
      };
  // A long system prompt goes inline until a model call stored it, then by its key.
  const system =
    state.systemKey !== undefined
      ? { systemKey: state.systemKey }
      : state.input.systemPrompt
        ? { system: state.input.systemPrompt }
        : {};
  return {
    ...sessionStoreInput(state),
    turn: state.turnIndex,
    settings: state.input.model,
    ...system,
    conversation: conversationLogKeys(state.log),
    ...tools,
    interactive: state.interactive,
  };
}
