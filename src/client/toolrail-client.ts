import type { Client } from '@temporalio/client';
import type { CompiledRuleSet } from '../rules';
import type { SessionInput } from '../session/session-input';
import { toolrailStatusKey } from '../session/search-attributes';
import type { SessionStatus } from '../session/session-status';
import { agentSession } from '../../workflows/agent-session';
import { SessionHandle } from './session-handle';
import { tracedClient } from '../tracing/client-tracing';
import type { TracingOptions } from '../tracing/tracing-options';

/** Options of {@link ToolrailClient.startSession}. */
export type StartSessionOptions = Omit<SessionInput, 'carried' | 'rules'> & {
  /** Compiled rules (see `loadRuleFiles`). */
  rules: CompiledRuleSet;
  /** The session id (workflow id). Defaults to `session-<random>`. */
  sessionId?: string;
  /** Task queue of the workers that run sessions. Defaults to the client's. */
  taskQueue?: string;
};

/** One listed session. */
export interface SessionListing {
  sessionId: string;
  runId: string;
  status: string | undefined;
  workflowStatus: string;
  startTime: Date;
}

/** Starts, finds and lists toolrail sessions on a Temporal server. */
export class ToolrailClient {
  readonly temporal: Client;
  readonly taskQueue: string;

  /**
   * `tracing` turns on OpenTelemetry spans of the client's calls (start, signal, query…), parents of
   * the sessions' spans; `temporal` is then a traced copy of `client` on the same connection.
   */
  constructor({
    client,
    taskQueue = 'toolrail',
    tracing,
  }: {
    client: Client;
    taskQueue?: string;
    tracing?: TracingOptions;
  }) {
    this.temporal = tracing ? tracedClient(client, tracing) : client;
    this.taskQueue = taskQueue;
  }

  /** Starts a session (a workflow) and returns its handle. */
  async startSession({ sessionId, taskQueue, ...input }: StartSessionOptions): Promise<SessionHandle> {
    const workflowId = sessionId ?? `session-${crypto.randomUUID()}`;
    const handle = await this.temporal.workflow.start(agentSession, {
      taskQueue: taskQueue ?? this.taskQueue,
      workflowId,
      args: [input],
      typedSearchAttributes: [{ key: toolrailStatusKey, value: 'idle' }],
      staticSummary: `toolrail session (${input.model.provider}:${input.model.model})`,
    });
    return new SessionHandle(handle);
  }

  /** The handle of an existing session. */
  getSession(sessionId: string): SessionHandle {
    return new SessionHandle(this.temporal.workflow.getHandle<typeof agentSession>(sessionId));
  }

  /** Lists sessions, newest first, optionally only those with one status (through the `ToolrailStatus` search attribute). */
  async listSessions({ status, limit = 100 }: { status?: SessionStatus; limit?: number } = {}): Promise<
    SessionListing[]
  > {
    const query = `WorkflowType = 'agentSession'${status ? ` AND ToolrailStatus = '${status}'` : ''}`;
    const sessions: SessionListing[] = [];
    for await (const execution of this.temporal.workflow.list({ query })) {
      sessions.push({
        sessionId: execution.workflowId,
        runId: execution.runId,
        status: execution.typedSearchAttributes.get(toolrailStatusKey),
        workflowStatus: execution.status.name,
        startTime: execution.startTime,
      });
      if (sessions.length >= limit) break;
    }
    return sessions;
  }
}
