import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../describe-error';
import type { AnyTool } from '../tool';
import type { McpToolCaller } from './mcp-tool-caller';
import { mcpToolToTool } from './mcp-tool-to-tool';

/** An MCP tool the bridge could not turn into a toolrail tool, and why. */
export interface SkippedMcpTool {
  readonly name: string;
  readonly reason: string;
}

/** The tools of a server, as toolrail tools, plus those that could not be bridged. */
export interface McpToolList {
  readonly tools: readonly AnyTool[];
  readonly skipped: readonly SkippedMcpTool[];
}

/** Most `tools/list` pages read before giving up on a server that never stops paginating. */
const MAX_TOOL_LIST_PAGES = 100;

/** A connected MCP server. Made by `connectMcpServer`. */
export class McpServerConnection {
  readonly name: string;
  readonly #client: Client;
  readonly #trustAnnotations: boolean;
  readonly #deferTools: boolean;
  readonly #toolTimeoutMs: number | undefined;
  #toolListChanged = true;

  constructor({
    client,
    name,
    trustAnnotations = true,
    deferTools = false,
    toolTimeoutMs,
  }: {
    client: Client;
    name: string;
    trustAnnotations?: boolean;
    deferTools?: boolean;
    toolTimeoutMs?: number;
  }) {
    this.#client = client;
    this.name = name;
    this.#trustAnnotations = trustAnnotations;
    this.#deferTools = deferTools;
    this.#toolTimeoutMs = toolTimeoutMs;
  }

  /** Whether the server said its tools changed since they were last listed (true before the first listing). */
  get toolListChanged(): boolean {
    return this.#toolListChanged;
  }

  /** Records a `notifications/tools/list_changed`; the next sync between turns picks it up. */
  markToolListChanged(): void {
    this.#toolListChanged = true;
  }

  /** Lists the server's tools (every page) and bridges each one; tools that cannot be bridged are reported, not thrown. */
  async listTools(): Promise<McpToolList> {
    this.#toolListChanged = false;
    const descriptors: McpToolDescriptor[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_LIST_PAGES; page += 1) {
      const result = await this.#client.listTools(cursor === undefined ? {} : { cursor });
      descriptors.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const tools: AnyTool[] = [];
    const skipped: SkippedMcpTool[] = [];
    for (const descriptor of descriptors) {
      try {
        tools.push(
          mcpToolToTool({
            serverName: this.name,
            descriptor,
            callTool: this.#callTool,
            trustAnnotations: this.#trustAnnotations,
            defer: this.#deferTools,
            ...(this.#toolTimeoutMs === undefined ? {} : { timeoutMs: this.#toolTimeoutMs }),
          }),
        );
      } catch (error) {
        skipped.push({ name: descriptor.name, reason: describeError(error) });
      }
    }
    return { tools, skipped };
  }

  /** Closes the connection (and, for stdio, ends the server process). */
  async close(): Promise<void> {
    await this.#client.close();
  }

  readonly #callTool: McpToolCaller = async (request, { signal, timeoutMs, onProgress }) => {
    const result: Record<string, unknown> = await this.#client.callTool(
      { name: request.name, arguments: request.arguments },
      undefined,
      { signal, timeout: timeoutMs, resetTimeoutOnProgress: true, onprogress: onProgress },
    );
    return { content: result['content'], structuredContent: result['structuredContent'], isError: result['isError'] };
  };
}
