import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import type { InterruptBehavior } from '../../dispatch';
import { describeError } from '../describe-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import type { AnyTool } from '../tool';
import type { ToolRegistry, ToolSource } from '../tool-registry';
import type { McpEndpoint, McpLink } from './mcp-endpoint';
import { McpServerError } from './mcp-server-error';
import type { McpToolCaller } from './mcp-tool-caller';
import type { McpToolOptions } from './mcp-tool-options';
import { mcpToolToTool } from './mcp-tool-to-tool';
import type { McpToolList, SkippedMcpTool } from './mcp-tool-list';
import { replaceMcpTools } from './replace-mcp-tools';

/** Where a connection stands. */
export interface McpServerStatus {
  /**
   * `connected`; `reconnecting` once the server was lost (its tools are unavailable meanwhile);
   * `closed` by `close()`.
   */
  readonly state: 'connected' | 'reconnecting' | 'closed';
  /** Why it is not connected: how it was lost, then why the latest reconnect attempt failed. `null` while connected. */
  readonly reason: string | null;
  /** Reconnect attempts that failed since the server was lost. */
  readonly failedAttempts: number;
  /** The server process's id (stdio) while connected, else `null`. */
  readonly pid: number | null;
}

/** What a connection applies to the server and each tool it bridges: `connectMcpServer`'s options, checked. */
export interface McpConnectionSettings {
  readonly name: string;
  readonly endpoint: McpEndpoint;
  readonly registry: ToolRegistry | undefined;
  readonly trustAnnotations: boolean;
  readonly deferTools: boolean;
  readonly toolTimeoutMs: number | undefined;
  readonly interruptBehavior: InterruptBehavior | undefined;
  readonly requiresPermission: boolean | undefined;
  readonly tools: Readonly<Record<string, McpToolOptions>>;
  readonly connectTimeoutMs: number;
  readonly reconnectInitialDelayMs: number;
  readonly reconnectMaxDelayMs: number;
}

/** Most `tools/list` pages read before giving up on a server that never stops paginating. */
const MAX_TOOL_LIST_PAGES = 100;
/** How long listing a server's tools may take, in milliseconds (a turn's catalog may wait for it). */
const LIST_TIMEOUT_MS = 10_000;
/** How long a Streamable HTTP server may take to answer the ping that checks it after a transport error, in ms. */
const PROBE_TIMEOUT_MS = 5_000;

/** One MCP session with the server: a client on one transport (one server process, for stdio). */
interface McpSession {
  readonly client: Client;
  readonly link: McpLink;
  /** Set once it was closed or lost: nothing it reports counts any more. */
  ended: boolean;
  /** Whether a ping is checking it after a transport error. */
  probing: boolean;
  /** Why it was lost, once it was: what its pending calls report. */
  lostReason?: string;
}

/**
 * A connection to an MCP server, made by `connectMcpServer`. It keeps the server's tools up to date:
 * when the server announces `notifications/tools/list_changed` it lists them again, and when the
 * server is lost (its process ended, its endpoint stopped answering) it reconnects with backoff,
 * its tools unavailable meanwhile with the reason. With a registry, each change is applied to it.
 */
export class McpServerConnection implements ToolSource {
  /** The server's name, as given to `connectMcpServer`; part of every tool name (`mcp__<name>__<tool>`). */
  readonly name: string;
  readonly #settings: McpConnectionSettings;
  #session: McpSession | undefined;
  #state: McpServerStatus['state'] = 'reconnecting';
  #reason: string | null = null;
  #failedAttempts = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #toolListChanged = true;
  #syncing: Promise<void> | undefined;
  #tools: readonly AnyTool[] = [];
  #skipped: readonly SkippedMcpTool[] = [];

  private constructor(settings: McpConnectionSettings) {
    this.name = settings.name;
    this.#settings = settings;
  }

  /**
   * Connects for the first time, lists the tools and, with a registry, registers them. Use
   * `connectMcpServer`, which checks the options first.
   *
   * @throws McpServerError (`MCP_CONNECTION_FAILED`) naming the server and why it could not be reached.
   */
  static async open(settings: McpConnectionSettings): Promise<McpServerConnection> {
    const connection = new McpServerConnection(settings);
    const { session, list } = await connection.#connect();
    connection.#adopt(session, list);
    settings.registry?.addSource(connection);
    return connection;
  }

  /** Where the connection stands: connected, reconnecting (and why), or closed. */
  get status(): McpServerStatus {
    return {
      state: this.#state,
      reason: this.#reason,
      failedAttempts: this.#failedAttempts,
      pid: this.#session?.link.pid ?? null,
    };
  }

  /** The server's tools as last listed, bridged. */
  get tools(): readonly AnyTool[] {
    return this.#tools;
  }

  /** The server's tools that could not be bridged (or that the registry refused), and why. */
  get skipped(): readonly SkippedMcpTool[] {
    return this.#skipped;
  }

  /** Whether the server said its tools changed since they were last listed (true before the first listing). */
  get toolListChanged(): boolean {
    return this.#toolListChanged;
  }

  /** Records a `notifications/tools/list_changed`; with a registry, the tools are listed again right away. */
  markToolListChanged(): void {
    this.#toolListChanged = true;
    if (this.#settings.registry !== undefined) void this.refresh();
  }

  /**
   * Lists the server's tools (every page) and bridges each one; tools that cannot be bridged are
   * reported, not thrown.
   *
   * @throws McpServerError when the server is not connected.
   */
  async listTools(): Promise<McpToolList> {
    const session = this.#session;
    if (session === undefined) {
      throw new McpServerError({
        code: 'MCP_CONNECTION_FAILED',
        server: this.name,
        detail: this.#reason ?? 'not connected',
        message: this.#unavailableReason() ?? `The MCP server "${this.name}" is not connected.`,
      });
    }
    // With a registry the connection applies changes itself: a look at the list must not hide one from it.
    if (this.#settings.registry === undefined) this.#toolListChanged = false;
    return this.#listWith(session);
  }

  /**
   * Brings the registry up to date when the server announced a changed tool list (the registry
   * calls this before each turn's catalog). Never rejects: a listing that fails is tried again at the
   * next refresh, and a lost server reports itself.
   */
  refresh(): Promise<void> {
    this.#syncing ??= this.#syncWhileChanged().finally(() => {
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  /**
   * Closes the connection (for stdio, ends the server process), stops reconnecting, and removes its
   * tools from the registry.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#reason = 'the connection was closed';
    clearTimeout(this.#reconnectTimer);
    const registry = this.#settings.registry;
    if (registry !== undefined) {
      registry.removeSource(this);
      replaceMcpTools(registry, this.name, []);
    }
    const session = this.#session;
    this.#session = undefined;
    if (session !== undefined) await this.#end(session);
  }

  /** Opens a session and lists the tools; on failure ends what it opened and throws `McpServerError`. */
  async #connect(): Promise<{ session: McpSession; list: McpToolList }> {
    const { endpoint, connectTimeoutMs } = this.#settings;
    const link = endpoint.open();
    const session: McpSession = {
      client: new Client(
        { name: 'toolrail', version: '0.1.0' },
        {
          listChanged: {
            tools: {
              autoRefresh: false,
              debounceMs: 0,
              onChanged: () => {
                if (!session.ended) this.markToolListChanged();
              },
            },
          },
        },
      ),
      link,
      ended: false,
      probing: false,
    };
    session.client.onclose = () => this.#lose(session, link.explain());
    session.client.onerror = () => this.#probe(session);
    try {
      await session.client.connect(link.transport, { timeout: connectTimeoutMs });
      this.#toolListChanged = false;
      return { session, list: await this.#listWith(session) };
    } catch (error) {
      // Explained before it is ended: ending a process that still runs would change what there is to say.
      const detail = link.explain(error);
      await this.#end(session);
      throw new McpServerError({
        code: 'MCP_CONNECTION_FAILED',
        server: this.name,
        detail,
        message: `Could not connect to the MCP server "${this.name}" (${endpoint.label}): it ${detail}`,
        cause: error,
      });
    }
  }

  /** Makes a connected session the current one and applies its tools. */
  #adopt(session: McpSession, list: McpToolList): void {
    this.#session = session;
    this.#state = 'connected';
    this.#reason = null;
    this.#failedAttempts = 0;
    this.#apply(list);
  }

  #apply(list: McpToolList): void {
    this.#tools = list.tools;
    const registry = this.#settings.registry;
    const refused = registry === undefined ? [] : replaceMcpTools(registry, this.name, list.tools).skipped;
    this.#skipped = [...list.skipped, ...refused];
  }

  /**
   * The session was lost (its process ended, its endpoint failed): its tools become unavailable and
   * reconnecting starts.
   */
  #lose(session: McpSession, reason: string): void {
    if (session.ended) return;
    session.lostReason = reason;
    void this.#end(session);
    if (this.#session !== session) return;
    this.#session = undefined;
    if (this.#state === 'closed') return;
    this.#state = 'reconnecting';
    this.#reason = reason;
    this.#failedAttempts = 0;
    this.#scheduleReconnect();
  }

  /** Ends a session: its pending requests fail, and for stdio its process is ended. */
  async #end(session: McpSession): Promise<void> {
    session.ended = true;
    await session.client.close().catch(() => undefined);
  }

  #scheduleReconnect(): void {
    const { reconnectInitialDelayMs, reconnectMaxDelayMs } = this.#settings;
    const delay = Math.min(reconnectMaxDelayMs, reconnectInitialDelayMs * 2 ** Math.min(this.#failedAttempts, 30));
    this.#reconnectTimer = setTimeout(() => void this.#reconnect(), delay);
    // A worker that stops without closing its connections is not kept alive by a pending attempt.
    this.#reconnectTimer.unref();
  }

  async #reconnect(): Promise<void> {
    this.#reconnectTimer = undefined;
    if (this.#state !== 'reconnecting') return;
    try {
      const { session, list } = await this.#connect();
      if (this.#state !== 'reconnecting' || session.ended) {
        await this.#end(session);
        if (this.#state === 'reconnecting') this.#retryLater('it closed its connection right after it connected');
        return;
      }
      this.#adopt(session, list);
    } catch (error) {
      if (this.#state !== 'reconnecting') return;
      this.#retryLater(McpServerError.isInstance(error) ? error.detail : describeError(error));
    }
  }

  #retryLater(reason: string): void {
    this.#failedAttempts += 1;
    this.#reason = reason;
    this.#scheduleReconnect();
  }

  /**
   * A Streamable HTTP transport reported an error (a dropped event stream, a failed request): a ping
   * tells whether the server is still there; if not, it is lost. A stdio server is lost when its
   * process ends, so its errors need no check.
   */
  #probe(session: McpSession): void {
    if (this.#settings.endpoint.kind === 'stdio' || session.probing || session.ended) return;
    if (this.#session !== session) return;
    session.probing = true;
    session.client.ping({ timeout: PROBE_TIMEOUT_MS }).then(
      () => {
        session.probing = false;
      },
      (error: unknown) => this.#lose(session, session.link.explain(error)),
    );
  }

  async #syncWhileChanged(): Promise<void> {
    // A server that keeps announcing changes while it is listed is listed at most three times per refresh.
    for (let round = 0; round < 3 && this.#toolListChanged; round += 1) {
      const session = this.#session;
      if (session === undefined) return;
      this.#toolListChanged = false;
      try {
        const list = await this.#listWith(session);
        if (this.#session !== session) return;
        this.#apply(list);
      } catch {
        this.#toolListChanged = true;
        return;
      }
    }
  }

  async #listWith(session: McpSession): Promise<McpToolList> {
    const descriptors: McpToolDescriptor[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_LIST_PAGES; page += 1) {
      const result = await session.client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: LIST_TIMEOUT_MS,
      });
      descriptors.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const tools: AnyTool[] = [];
    const skipped: SkippedMcpTool[] = [];
    for (const descriptor of descriptors) {
      try {
        tools.push(this.#bridge(descriptor));
      } catch (error) {
        skipped.push({ name: descriptor.name, reason: describeError(error) });
      }
    }
    return { tools, skipped };
  }

  #bridge(descriptor: McpToolDescriptor): AnyTool {
    const settings = this.#settings;
    const own = Object.hasOwn(settings.tools, descriptor.name) ? settings.tools[descriptor.name] : undefined;
    const timeoutMs = own?.timeoutMs ?? settings.toolTimeoutMs;
    const interruptBehavior = own?.interruptBehavior ?? settings.interruptBehavior;
    const requiresPermission = own?.requiresPermission ?? settings.requiresPermission;
    return mcpToolToTool({
      serverName: this.name,
      descriptor,
      callTool: this.#callTool,
      trustAnnotations: settings.trustAnnotations,
      defer: settings.deferTools,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(interruptBehavior === undefined ? {} : { interruptBehavior }),
      ...(requiresPermission === undefined ? {} : { requiresPermission }),
      unavailableReason: this.#unavailableReason,
    });
  }

  /** Why the server's tools cannot run now, or `undefined` while it is connected. */
  readonly #unavailableReason = (): string | undefined => {
    if (this.#session !== undefined) return undefined;
    if (this.#state === 'closed') return `the connection to the MCP server "${this.name}" was closed.`;
    const { kind, label } = this.#settings.endpoint;
    // The URL says where a remote server is; a command line says nothing the model needs (and may hold secrets).
    const where = kind === 'streamable-http' ? ` (${label})` : '';
    const reason = this.#reason ?? 'has not connected yet';
    return `the MCP server "${this.name}"${where} is not connected: it ${reason}\ntoolrail is reconnecting to it on its own; its tools work again once it is back.`;
  };

  readonly #callTool: McpToolCaller = async (request, { signal, timeoutMs, onProgress }) => {
    const session = this.#session;
    // Not connected: nothing to retry now; the next turn's catalog says when the server is back.
    if (session === undefined) {
      throw new ToolExecutionError({ message: `This tool is unavailable: ${this.#unavailableReason() ?? ''}` });
    }
    let result: Record<string, unknown>;
    try {
      result = await session.client.callTool({ name: request.name, arguments: request.arguments }, undefined, {
        signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: onProgress,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      if (session.lostReason !== undefined || session.link.isBroken(error)) {
        // A session lost elsewhere (its process ended, a ping failed) rejects its calls with
        // "Connection closed": say why instead.
        const reason = session.lostReason ?? session.link.explain(error);
        this.#lose(session, reason);
        // Not retried: the model reads why and decides; the next turn's catalog says whether the server is back.
        throw new ToolExecutionError({
          message: `The MCP server "${this.name}" was lost while this call ran: it ${reason}\nThe call may or may not have taken effect. toolrail is reconnecting to the server.`,
          cause: error,
        });
      }
      throw new ToolExecutionError({
        message: `The MCP server "${this.name}" failed the call: ${describeError(error)}`,
        cause: error,
      });
    }
    return { content: result['content'], structuredContent: result['structuredContent'], isError: result['isError'] };
  };
}
