import type { LanguageModelRegistry, LanguageModelV4, WorkerModels } from '../models';
import type { ToolHooks, AnyTool } from '../tools';
import { ToolRegistry } from '../tools';

/**
 * What a module given to `toolrail worker --module FILE` exports (as `default`): the tools the
 * worker serves (a list, or a registry, e.g. one that MCP servers keep their tools in), and
 * optionally language models (by id, or a registry), scripted models and tool hooks.
 */
export interface ToolrailWorkerModule {
  tools: readonly AnyTool[] | ToolRegistry;
  /** Language models by the id sessions name (`--model ID`), as `createWorker({ models })` takes them. */
  models?: WorkerModels;
  /** Resolves ids not in `models`, as `createWorker({ modelRegistry })`. */
  modelRegistry?: LanguageModelRegistry;
  scriptedModels?: Readonly<Record<string, LanguageModelV4>>;
  hooks?: ToolHooks;
}

/** Checks the shape of a loaded worker module; throws naming what is missing. */
export function readWorkerModule(loaded: unknown, file: string): ToolrailWorkerModule {
  const candidate = (loaded as { default?: unknown }).default ?? loaded;
  const inner = (candidate as { default?: unknown }).default ?? candidate;
  const tools = typeof inner === 'object' && inner !== null ? (inner as { tools?: unknown }).tools : undefined;
  if (!Array.isArray(tools) && !(tools instanceof ToolRegistry)) {
    throw new Error(
      `${file}: expected a default export { tools: [...] or a ToolRegistry, models?, modelRegistry?, scriptedModels?, hooks? } (see docs/tools.md)`,
    );
  }
  return inner as ToolrailWorkerModule;
}
