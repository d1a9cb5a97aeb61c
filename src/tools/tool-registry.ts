import { TOOL_SEARCH_NAME } from '../dispatch';
import { ToolRegistrationError, ToolRegistrationRefusal } from './errors/tool-registration-error';
import { isDeferred } from './is-deferred';
import type { AnyTool } from './tool';
import { createToolSearchTool } from './tool-search/create-tool-search-tool';

/**
 * Something that changes a registry's tools while the worker runs (an MCP server whose tool list
 * changes, or that is reconnected). The registry asks each source to catch up before a turn's catalog
 * is built (`refresh`), so a change the source has heard of is in the next turn's catalog.
 */
export interface ToolSource {
  /** Brings the source's tools in the registry up to date; resolves when done (never rejects). */
  refresh(): Promise<void>;
}

/** How long a catalog waits for the sources of changing tools to catch up, in milliseconds. */
const SOURCE_REFRESH_TIMEOUT_MS = 10_000;

/** A tool found by name: the registered tool, and whether the name was one of its aliases. */
export interface ResolvedTool {
  readonly tool: AnyTool;
  readonly viaAlias: boolean;
}

/**
 * The tools a session may call, held in `Map`s so that no model-supplied name (`__proto__`,
 * `constructor`…) can reach an object's prototype. Aliases come only from the definitions of
 * registered local tools and always point at one of them; a tool whose name or aliases collide with
 * anything registered is refused, as is an external (MCP) tool that declares aliases. The built-in
 * `tool_search` is always registered.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  /** alias → name of the registered tool that declared it. */
  readonly #aliases = new Map<string, string>();
  readonly #sources = new Set<ToolSource>();

  constructor(tools: readonly AnyTool[] = []) {
    this.#tools.set(
      TOOL_SEARCH_NAME,
      createToolSearchTool({
        listSearchable: () => this.list().filter((tool) => isDeferred(tool) && tool.isEnabled()),
      }),
    );
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool.
   *
   * @throws ToolRegistrationError when its name or an alias is taken or reserved, or when an external
   * tool declares aliases.
   */
  register(tool: AnyTool): void {
    const refuse = (reason: ToolRegistrationRefusal, contestedName: string, detail: string): never => {
      throw new ToolRegistrationError({ toolName: tool.name, reason, contestedName, detail });
    };
    if (tool.name === TOOL_SEARCH_NAME || tool.aliases.includes(TOOL_SEARCH_NAME)) {
      refuse(ToolRegistrationRefusal.RESERVED_NAME, TOOL_SEARCH_NAME, `"${TOOL_SEARCH_NAME}" is built in`);
    }
    if (this.#tools.has(tool.name)) {
      refuse(ToolRegistrationRefusal.DUPLICATE_NAME, tool.name, 'a tool with this name is already registered');
    }
    const owner = this.#aliases.get(tool.name);
    if (owner !== undefined) {
      refuse(ToolRegistrationRefusal.ALIAS_COLLISION, tool.name, `it is an alias of "${owner}"`);
    }
    if (tool.origin.kind !== 'local' && tool.aliases.length > 0) {
      refuse(
        ToolRegistrationRefusal.EXTERNAL_ALIAS,
        tool.aliases[0] ?? tool.name,
        'only local tools may declare aliases',
      );
    }
    for (const alias of tool.aliases) {
      const taken = this.#tools.has(alias) ? alias : this.#aliases.get(alias);
      if (alias === tool.name || taken !== undefined) {
        refuse(
          ToolRegistrationRefusal.ALIAS_COLLISION,
          alias,
          `the alias "${alias}" already names "${taken ?? alias}"`,
        );
      }
    }
    this.#tools.set(tool.name, tool);
    for (const alias of tool.aliases) this.#aliases.set(alias, tool.name);
  }

  /** Removes a tool and its aliases (for dynamic tool sets); `tool_search` stays. Returns whether it was there. */
  unregister(name: string): boolean {
    const tool = this.#tools.get(name);
    if (tool === undefined || name === TOOL_SEARCH_NAME) return false;
    this.#tools.delete(name);
    for (const alias of tool.aliases) this.#aliases.delete(alias);
    return true;
  }

  /** Adds a source of changing tools, asked to catch up at every {@link refresh}. */
  addSource(source: ToolSource): void {
    this.#sources.add(source);
  }

  /** Removes a source added with {@link addSource}; its tools stay until it unregisters them. */
  removeSource(source: ToolSource): void {
    this.#sources.delete(source);
  }

  /**
   * Lets every source bring its tools up to date (e.g. an MCP server that announced a changed tool
   * list); the session's catalog activity calls it before each turn's catalog. Waits for each source
   * at most `timeoutMs` (default 10_000): a source that takes longer catches up in the background
   * and its change reaches a later catalog. Never rejects.
   */
  async refresh({ timeoutMs = SOURCE_REFRESH_TIMEOUT_MS }: { timeoutMs?: number } = {}): Promise<void> {
    if (this.#sources.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await Promise.race([
        Promise.all([...this.#sources].map((source) => source.refresh().catch(() => undefined))),
        waited,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The tool registered under exactly this name (aliases not considered). */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** The tool a requested name means: a registered name first, then an alias of a registered tool. */
  resolve(requestedName: string): ResolvedTool | undefined {
    const tool = this.#tools.get(requestedName);
    if (tool !== undefined) return { tool, viaAlias: false };
    const target = this.#aliases.get(requestedName);
    const aliased = target === undefined ? undefined : this.#tools.get(target);
    return aliased === undefined ? undefined : { tool: aliased, viaAlias: true };
  }

  /** Every registered tool, sorted by name. */
  list(): AnyTool[] {
    return [...this.#tools.values()].sort((left, right) =>
      left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
    );
  }
}
