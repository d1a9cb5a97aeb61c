import type { PreparedCall } from '../src/dispatch/prepared-call';
import type { ToolCatalog } from '../src/dispatch/tool-catalog';
import type { ToolErrorOutcome, ToolOutcome } from '../src/dispatch/tool-outcome';
import type { ConversationMessage } from '../src/models/conversation-message';
import type { ModelResponse } from '../src/models/model-response';
import type { ModelToolSpec } from '../src/models/model-request';
import type { ModelSettings } from '../src/models/model-settings';

/** Input of {@link SessionActivities.loadCatalog}. */
export interface LoadCatalogInput {
  sessionId: string;
  /** Tool names the session may use; `undefined` means every registered tool. */
  tools: string[] | undefined;
  /** Deferred tools that `tool_search` revealed so far. */
  revealed: string[];
  /** Version of the catalog the session holds; when the current one has it, only `{ unchanged: true }` comes back. */
  knownVersion?: string;
}

/** What {@link SessionActivities.loadCatalog} returns: the turn's catalog, or word that the held one is current. */
export type LoadCatalogResult = ToolCatalog | { unchanged: true; version: string };

/** Input of {@link SessionActivities.callModel}. */
export interface CallModelInput {
  sessionId: string;
  turn: number;
  settings: ModelSettings;
  system?: string;
  messages: ConversationMessage[];
  tools: ModelToolSpec[];
  /** Tool names of this turn's catalog: calls outside it are unknown tools. */
  catalog: string[];
  interactive: boolean;
}

/** Output of {@link SessionActivities.callModel}: the response and, per proposed call, its preparation. */
export interface CallModelResult {
  response: ModelResponse;
  /** Same order as `response.toolCalls`: a call ready for rules and dispatch, or the error it already got. */
  prepared: (PreparedCall | ToolErrorOutcome)[];
}

/** Input of {@link SessionActivities.executeTool}. */
export interface ExecuteToolInput {
  sessionId: string;
  prepared: PreparedCall;
  /** Whether a human approved this call (its permission was `ask`). */
  approved: boolean;
  /** Session turn of the call, part of its idempotency key. */
  turn: number;
  interactive: boolean;
}

/** The activities a session workflow calls; the worker builds them with `createSessionActivities`. */
export interface SessionActivities {
  loadCatalog(input: LoadCatalogInput): Promise<LoadCatalogResult>;
  callModel(input: CallModelInput): Promise<CallModelResult>;
  executeTool(input: ExecuteToolInput): Promise<ToolOutcome>;
}
