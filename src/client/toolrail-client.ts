import { WithStartWorkflowOperation } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import type { CompiledRuleSet } from '../rules';
import type { ListedSessionStatus, SessionInput, SessionStatus } from '../session';
import {
  SessionInputError,
  checkSessionInput,
  listedSessionStatuses,
  listedStatus,
  modelLabel,
  newSessionSearchAttributes,
  sendUserMessageUpdate,
  toolrailStatusKey,
  toolrailTotalTokensKey,
} from '../session';
import { ModelError, ModelErrorCode } from '../models';
import { parseModelSettings } from '../model-settings';
import { toolrailVersion } from '../session';
import { agentSession } from '../../workflows';
import { SessionHandle } from './session-handle';
import type { SentMessage } from './sent-message';
import type { ContentStore, EncodedContent } from '../store';
import { encodedContent } from '../store';
import { tracedClient } from '../tracing';
import { encodeMessage } from '../conversation';
import type { TracingOptions } from '../tracing';
import type { LiveChannel } from '../live';

/** Options of {@link ToolrailClient.startSession}. */
export type StartSessionOptions = Omit<SessionInput, 'carried' | 'rules'> & {
  /** Compiled rules (see `loadRuleFiles`). */
  rules: CompiledRuleSet;
  /** The session id (workflow id). Defaults to `session-<random>`. */
  sessionId?: string;
  /** Task queue of the workers that run sessions. Defaults to the client's. */
  taskQueue?: string;
};

/** Options of {@link ToolrailClient.sendOrStart}: the message, and the session to start if there is none yet. */
export type SendOrStartOptions = Omit<StartSessionOptions, 'firstMessage' | 'sessionId'> & {
  /** The session's stable id (the workflow id), e.g. a conversation id of your app. */
  sessionId: string;
  /** The user message. */
  text: string;
  /**
   * When a session with this id existed and has ended: `reject` (the default) refuses with a
   * `WorkflowExecutionAlreadyStartedError`; `start-new` starts a new session under the same id (a
   * new conversation: the ended one's is not carried over).
   */
  ifEnded?: 'reject' | 'start-new';
};

/** One listed session. */
export interface SessionListing {
  sessionId: string;
  runId: string;
  /**
   * The session's listed status: its `ToolrailStatus` while the workflow runs (`running` while it
   * thinks or runs tools; its `status()` tells which); `completed` once it completed; `failed` once
   * it failed, was terminated, timed out or was cancelled (the workflow cannot update its search
   * attribute on the paths the server ends).
   */
  status: ListedSessionStatus | undefined;
  /** Temporal's execution status, e.g. `RUNNING`, `COMPLETED`, `TERMINATED`. */
  workflowStatus: string;
  startTime: Date;
  /** Input plus output tokens of the session's model calls so far (its `ToolrailTotalTokens`), when it set them. */
  totalTokens: number | undefined;
}

/**
 * A first message larger than this (UTF-8 bytes) is stored in the content store before the start and
 * passed by reference, when the client has the store: the workflow's input then never becomes an
 * External Storage claim, which every replay of the session would need.
 */
const inlineFirstMessageBytes = 131_072;

/** Execution statuses of a workflow that ended without completing. */
const abnormalEnds = ['Failed', 'Terminated', 'TimedOut', 'Canceled'];

/** Starts, finds and lists toolrail sessions on a Temporal server. */
export class ToolrailClient {
  readonly temporal: Client;
  readonly taskQueue: string;
  /** The content store the sessions' workers use, for full transcripts; see `openContentStore`. */
  readonly contentStore: ContentStore | undefined;
  /** `contentStore` through the payload codecs of `client`'s data converter. */
  readonly #content: EncodedContent | undefined;
  /** The workers' live channel, which `session.events()` follows when there is one. */
  readonly live: LiveChannel | undefined;

  /**
   * @param client A Temporal client. The payload codecs of its data converter also decode what the
   *   client reads from the content store, as the workers' encode what they write.
   * @param taskQueue Task queue of the workers that run sessions. Defaults to `toolrail`.
   * @param contentStore The workers' content store, to read whole messages (`transcript({ full: true })`).
   * @param tracing OpenTelemetry spans of the client's calls (start, signal, query…), parents of the
   *   sessions' spans; `temporal` is then a traced copy of `client` on the same connection. Off by default.
   * @param live The live channel the workers publish on (see `openLiveChannel`; the caller closes
   *   it): `session.events()`, `reply()` and the UI message stream follow sessions through it. None by default.
   */
  constructor({
    client,
    taskQueue = 'toolrail',
    contentStore,
    tracing,
    live,
  }: {
    client: Client;
    taskQueue?: string;
    contentStore?: ContentStore;
    tracing?: TracingOptions;
    live?: LiveChannel;
  }) {
    this.temporal = tracing ? tracedClient(client, tracing) : client;
    this.taskQueue = taskQueue;
    this.contentStore = contentStore;
    this.live = live;
    this.#content =
      contentStore &&
      encodedContent(contentStore, {
        payloadCodecs: client.options.loadedDataConverter.payloadCodecs,
        namespace: client.options.namespace,
      });
  }

  /**
   * Starts a session (a workflow) and returns its handle. The input is checked first, with the
   * schema the workflow checks it with, and nothing starts when it is bad: model settings that do
   * not validate throw a `ModelError` `CONFIGURATION` naming each problem; a `model.baseUrl` that
   * carries credentials is refused (the input is kept in the workflow's history: API keys belong in
   * the worker's environment, `model.apiKeyEnv`); any other problem a {@link SessionInputError}
   * listing every one. A first message over 128 KiB is written to the content store first (when the
   * client has it, through the client's payload codecs) and the session gets its reference.
   */
  async startSession({ sessionId, taskQueue, ...options }: StartSessionOptions): Promise<SessionHandle> {
    refuseInvalidModelSettings(options.model);
    refuseCredentialsInUrl(options.model);
    const checked = checkSessionInput(options);
    if (!checked.ok) throw new SessionInputError(checked.problems);
    // Sent as the check returned it, and said so: the workflow (of this version) does not check it again.
    const input: SessionInput = { ...checked.input, checkedBy: toolrailVersion };
    const workflowId = sessionId ?? `session-${crypto.randomUUID()}`;
    const { firstMessage, ...rest } = input;
    let args: SessionInput = input;
    if (
      firstMessage !== undefined &&
      this.#content &&
      Buffer.byteLength(firstMessage, 'utf8') > inlineFirstMessageBytes
    ) {
      const { ref, bytes } = encodeMessage({ role: 'user', text: firstMessage });
      args = { ...rest, firstMessageRef: { ...ref, key: await this.#content.put(workflowId, bytes) } };
    }
    const handle = await this.temporal.workflow.start(agentSession, {
      taskQueue: taskQueue ?? this.taskQueue,
      workflowId,
      args: [args],
      typedSearchAttributes: newSessionSearchAttributes({
        running: args.firstMessage !== undefined || args.firstMessageRef !== undefined,
      }),
      staticSummary: `toolrail session (${modelLabel(input.model)})`,
    });
    return new SessionHandle(handle, { content: this.#content, live: this.live });
  }

  /**
   * Sends a message to the session `sessionId`, starting it first if it does not exist yet, in one
   * request (Temporal's update-with-start): for stateless backends (an HTTP handler) that address a
   * session by a stable id. The start options apply only when it starts the session; a running
   * session keeps its own. Resolves once the message is queued, to the session and the message,
   * whose `reply()` resolves when the run it started ends. The start options are checked as
   * {@link startSession} checks them.
   */
  async sendOrStart({
    sessionId,
    text,
    taskQueue,
    ifEnded = 'reject',
    ...input
  }: SendOrStartOptions): Promise<{ session: SessionHandle; message: SentMessage }> {
    // Checked as startSession checks it, even when the session exists.
    refuseInvalidModelSettings(input.model);
    refuseCredentialsInUrl(input.model);
    const checked = checkSessionInput(input);
    if (!checked.ok) throw new SessionInputError(checked.problems);
    const startWorkflowOperation = new WithStartWorkflowOperation(agentSession, {
      taskQueue: taskQueue ?? this.taskQueue,
      workflowId: sessionId,
      args: [{ ...checked.input, checkedBy: toolrailVersion }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: ifEnded === 'start-new' ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      // Its message arrives as an update, after the workflow's first look: it starts `idle`.
      typedSearchAttributes: newSessionSearchAttributes({ running: false }),
      staticSummary: `toolrail session (${modelLabel(input.model)})`,
    });
    const sent = await this.temporal.workflow.executeUpdateWithStart(sendUserMessageUpdate, {
      args: [{ text }],
      startWorkflowOperation,
    });
    const session = this.getSession(sessionId);
    return { session, message: session.sentMessage(sent) };
  }

  /** The handle of an existing session. */
  getSession(sessionId: string): SessionHandle {
    return new SessionHandle(this.temporal.workflow.getHandle<typeof agentSession>(sessionId), {
      content: this.#content,
      live: this.live,
    });
  }

  /**
   * Lists sessions, newest first, optionally only those with one status. The status combines the
   * `ToolrailStatus` search attribute with the workflow's execution status, so a terminated or
   * timed-out session lists as `failed`, never as the status it had when the server ended it.
   */
  async listSessions({ status, limit = 100 }: { status?: ListedSessionStatus; limit?: number } = {}): Promise<
    SessionListing[]
  > {
    const query = `WorkflowType = 'agentSession' AND ExecutionStatus != 'ContinuedAsNew'${statusFilter(status)}`;
    const sessions: SessionListing[] = [];
    for await (const execution of this.temporal.workflow.list({ query })) {
      const workflowStatus = execution.status.name;
      sessions.push({
        sessionId: execution.workflowId,
        runId: execution.runId,
        status:
          workflowStatus === 'COMPLETED'
            ? 'completed'
            : workflowStatus === 'RUNNING'
              ? listedOrUndefined(execution.typedSearchAttributes.get(toolrailStatusKey))
              : 'failed',
        workflowStatus,
        startTime: execution.startTime,
        totalTokens: execution.typedSearchAttributes.get(toolrailTotalTokensKey),
      });
      if (sessions.length >= limit) break;
    }
    return sessions;
  }
}

/** Throws when the model's `baseUrl` holds a user name or password; the error does not repeat them. */
function refuseCredentialsInUrl(model: SessionInput['model']): void {
  const baseUrl = 'baseUrl' in model ? model.baseUrl : undefined;
  if (baseUrl === undefined || !URL.canParse(baseUrl)) return;
  const url = new URL(baseUrl);
  if (url.username === '' && url.password === '') return;
  throw new Error(
    `model.baseUrl must not carry credentials (${url.protocol}//***@${url.host}): the session input is stored in its history; give the API key to the worker in the environment variable named by model.apiKeyEnv`,
  );
}

/**
 * The listed status of a `ToolrailStatus` value (sessions started by earlier versions set
 * `thinking` and `running_tools`).
 */
function listedOrUndefined(value: string | undefined): ListedSessionStatus | undefined {
  return value === undefined ? undefined : listedStatus(value as SessionStatus);
}

/** The list query's filter for one status (see {@link ToolrailClient.listSessions}). */
function statusFilter(status: ListedSessionStatus | undefined): string {
  if (status === undefined) return '';
  if (!listedSessionStatuses.includes(status)) {
    // From plain JavaScript, a status only the `status` query shows.
    const given: string = status;
    const which =
      given === 'thinking' || given === 'running_tools'
        ? ' (lists show both thinking and running_tools as running)'
        : '';
    throw new TypeError(
      `listSessions: status must be one of ${listedSessionStatuses.join(', ')}, not ${JSON.stringify(status)}${which}`,
    );
  }
  // Sessions started by earlier versions show thinking and running_tools apart.
  if (status === 'running')
    return ` AND ExecutionStatus = 'Running' AND ToolrailStatus IN ('running', 'thinking', 'running_tools')`;
  if (status === 'completed') return ` AND ExecutionStatus = 'Completed'`;
  if (status === 'failed') {
    const ended = abnormalEnds.map((name) => `'${name}'`).join(', ');
    return ` AND (ExecutionStatus IN (${ended}) OR ToolrailStatus = 'failed')`;
  }
  return ` AND ExecutionStatus = 'Running' AND ToolrailStatus = '${status}'`;
}

/**
 * Model settings that do not validate are refused before anything starts: a `ModelError`
 * `CONFIGURATION` naming each problem.
 */
function refuseInvalidModelSettings(model: SessionInput['model']): void {
  const settings = parseModelSettings(model);
  if (!settings.ok)
    throw new ModelError({ code: ModelErrorCode.CONFIGURATION, message: settings.message, provider: 'model' });
}
