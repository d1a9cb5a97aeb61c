import { WorkflowNotFoundError } from '@temporalio/client';
import type { WorkflowHandle } from '@temporalio/client';
import {
  approveToolCallUpdate,
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  statusQuery,
  transcriptQuery,
  sendUserMessageUpdate,
} from '../session';
import { mergeRuleStatePages } from '../session';
import type {
  FeedEvent,
  RuleStatePage,
  SentUserMessage,
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  TranscriptPage,
} from '../session';

/** How often `ruleState()` starts over when the session's state changes between two pages. */
const maxRuleStateAttempts = 5;
import type { Trace } from '../rules';
import { readTranscript, recordedTrace } from '../tracing';
import type { ReadToolContent } from '../tracing';
import type { agentSession } from '../../workflows';
import { decodeMessage } from '../conversation';
import type { ContentRef, EncodedContent } from '../store';
import { previousRunOf } from './previous-run';
import type { LiveChannel } from '../live';
import { followSessionFeed } from './session-feed';
import type { SessionEventsOptions } from './session-feed';
import { SentMessage } from './sent-message';
import { toolOutputOf } from './tool-output';

/** A typed handle on one session (one workflow). */
export class SessionHandle {
  /** The session id, which is the workflow id. */
  readonly sessionId: string;
  readonly workflow: WorkflowHandle<typeof agentSession>;
  readonly #content: EncodedContent | undefined;
  readonly #live: LiveChannel | undefined;

  /**
   * @param content The workers' content store through the client's payload codecs (see `encodedContent`).
   * @param live The workers' live channel: `events()` follows the session through it.
   */
  constructor(
    workflow: WorkflowHandle<typeof agentSession>,
    { content, live }: { content?: EncodedContent | undefined; live?: LiveChannel | undefined } = {},
  ) {
    this.workflow = workflow;
    this.sessionId = workflow.workflowId;
    this.#content = content;
    this.#live = live;
  }

  /**
   * Sends a user message: it starts a run now, or after the running tools finish. Resolves once the
   * session has queued it, to a {@link SentMessage} whose `reply()` resolves when that run ends.
   * Rejects with a `WorkflowUpdateFailedError` whose cause says why, and changes nothing, when the
   * message is empty or larger than the session's `limits.maxUserMessageBytes` (UTF-8 bytes; 1 MiB
   * by default).
   */
  async send(text: string): Promise<SentMessage> {
    return this.sentMessage(await this.workflow.executeUpdate(sendUserMessageUpdate, { args: [{ text }] }));
  }

  /**
   * The session's live feed from offset `from` on (default 0): every event once, in order, as it
   * happens, until the session ends or `signal` aborts; across continue-as-new and worker restarts.
   * It never writes to the session's history: with the client's live channel the events come
   * through it (and streamed text as it is written), read with queries only to catch up; without,
   * with a query per workflow task. Throws a `FeedGapError` when no run of the session holds `from`
   * any more (it names the oldest offset still held).
   */
  events(options: SessionEventsOptions = {}): AsyncIterable<FeedEvent> {
    const live = this.#live;
    return followSessionFeed(this.workflow.client, this.sessionId, { ...options, ...(live ? { live } : {}) });
  }

  /** The handle of a message the session answered `sent` for. */
  sentMessage(sent: SentUserMessage): SentMessage {
    const { offset, queuedBefore } = sent;
    if (offset === undefined) throw new Error(`session ${this.sessionId} runs a version without a live feed`);
    return new SentMessage(
      {
        sessionId: this.sessionId,
        events: (options) => this.events(options),
        readText: (ref) => this.readText(ref),
      },
      { offset, queuedBefore },
    );
  }

  /** Interrupts: stops the model call and `cancel` tools; `text` starts the next run. */
  async interrupt(text?: string): Promise<void> {
    await this.workflow.signal(interruptSignal, text === undefined ? {} : { text });
  }

  /** Approves a call that waits for a human. Rejects if no such call waits. */
  async approve(callId: string, reason?: string): Promise<void> {
    await this.workflow.executeUpdate(approveToolCallUpdate, {
      args: [{ callId, approved: true, ...(reason === undefined ? {} : { reason }) }],
    });
  }

  /** Denies a call that waits for a human. Rejects if no such call waits. */
  async deny(callId: string, reason?: string): Promise<void> {
    await this.workflow.executeUpdate(approveToolCallUpdate, {
      args: [{ callId, approved: false, ...(reason === undefined ? {} : { reason }) }],
    });
  }

  /**
   * The rule state: visible and hidden tools with reasons, counts, sequences, pending approvals,
   * running calls; between runs, what the next run will allow. Reads every page of the `ruleState`
   * query (starting over when the state changed between two pages).
   */
  async ruleState(): Promise<SessionRuleStateView> {
    for (let attempt = 1; ; attempt += 1) {
      const pages: RuleStatePage[] = [];
      try {
        let cursor: string | null | undefined;
        do {
          const page: RuleStatePage = cursor
            ? await this.workflow.query(ruleStateQuery, { cursor })
            : await this.workflow.query(ruleStateQuery);
          pages.push(page);
          cursor = page.next;
        } while (cursor !== null);
        return mergeRuleStatePages(pages);
      } catch (error) {
        const changed = error instanceof Error && /the state changed since cursor/.test(error.message);
        if (!changed || attempt >= maxRuleStateAttempts) throw error;
      }
    }
  }

  /**
   * Everything that happened, turn by turn, since the session began: the latest run's entries and,
   * after continue-as-new, the earlier runs' (read from those runs' `transcript` queries, which a
   * worker answers by replaying them, while they are within the namespace's retention; entries a
   * run trimmed past 2,000 are in its history only). The query returns previews of messages and
   * results; with `full: true` each is replaced by its whole text, read from the content store (the
   * client needs the workers' store for that).
   */
  async transcript({ full = false }: { full?: boolean } = {}): Promise<TranscriptEntry[]> {
    // The first page is asked for with no argument: nothing for a worker to decode (a worker with
    // other payload codecs than this client's can still answer it).
    const first = await this.workflow.query(transcriptQuery);
    const entries =
      first.start === undefined || first.start === 0
        ? await this.#runTranscript(this.workflow, first, Number.POSITIVE_INFINITY)
        : // Earlier runs hold the first entries: read them from the latest run on, by its id (it may continue as new meanwhile).
          await this.#transcriptFrom((await this.workflow.describe()).runId, undefined, Number.POSITIVE_INFINITY);
    if (!full) return entries;
    const content = this.#content;
    if (content === undefined)
      throw new Error('transcript({ full: true }) needs the content store: pass contentStore to the ToolrailClient');
    return Promise.all(entries.map((entry) => withFullText(content, this.sessionId, entry)));
  }

  /**
   * The entries of run `runId` from position `from` (`undefined`: its oldest) up to `until`
   * (excluded), after those before its oldest entry, read from the run before it.
   */
  async #transcriptFrom(runId: string, from: number | undefined, until: number): Promise<TranscriptEntry[]> {
    const run = this.workflow.client.getHandle<typeof agentSession>(this.sessionId, runId);
    let first: TranscriptPage;
    try {
      first =
        from === undefined
          ? await run.query(transcriptQuery)
          : await run.query(transcriptQuery, { cursor: String(from) });
    } catch (error) {
      // A run past the namespace's retention is gone, and its entries with it.
      if (from !== undefined && error instanceof WorkflowNotFoundError) return [];
      throw error;
    }
    const oldest = from === undefined ? (first.start ?? 0) : from + first.skipped;
    const previous =
      oldest > (from ?? 0) ? await previousRunOf(this.workflow.client, this.sessionId, runId) : undefined;
    const earlier = previous === undefined ? [] : await this.#transcriptFrom(previous, from ?? 0, oldest);
    return [...earlier, ...(await this.#runTranscript(run, first, Math.max(0, until - oldest)))];
  }

  /** The entries of one run from its page `first` on, at most `count` of them, following its pages. */
  async #runTranscript(
    run: WorkflowHandle<typeof agentSession>,
    first: TranscriptPage,
    count: number,
  ): Promise<TranscriptEntry[]> {
    const entries: TranscriptEntry[] = [];
    for (let page = first; ; page = await run.query(transcriptQuery, { cursor: page.next })) {
      entries.push(...page.entries.slice(0, count - entries.length));
      if (!page.more || entries.length >= count) return entries;
    }
  }

  /**
   * What the session did, as a trace for `toolrail simulate`: its catalog, user messages, and every
   * model response with the calls that reached the rules, their arguments and results. Simulate it
   * with other rules to see which calls they would have hidden or refused, and why.
   * `readToolContent` returns a tool result's full text (default: the transcript's `content`).
   */
  async exportTrace({ readToolContent }: { readToolContent?: ReadToolContent } = {}): Promise<Trace> {
    // Whole results from the content store when the client has it (rules may read a result's full output).
    const full = this.#content !== undefined;
    const [entries, state] = await Promise.all([this.transcript({ full }), this.ruleState()]);
    const catalog = [...state.rules.visible, ...state.rules.hidden.map(({ tool }) => tool)];
    const events = await readTranscript(entries, readToolContent);
    return recordedTrace(events, catalog, `session ${this.sessionId}, exported from its transcript`);
  }

  /** Status, counters and why the last run ended. */
  status(): Promise<SessionStatusView> {
    return this.workflow.query(statusQuery);
  }

  /**
   * Why the session cannot run, when its workflow task fails (so queries and updates fail too): the
   * message of its newest workflow task failure since its last completed task, e.g. content of its
   * history that its store no longer has. `undefined` when its workflow task does not fail.
   */
  async workflowTaskFailure(): Promise<string | undefined> {
    const { events } = await this.workflow.fetchHistory();
    for (const event of [...(events ?? [])].reverse()) {
      if (event.workflowTaskCompletedEventAttributes) return undefined;
      const failure = event.workflowTaskFailedEventAttributes?.failure;
      if (failure) return failure.message ?? 'the workflow task failed';
    }
    return undefined;
  }

  /** Asks the session to end once its current run is over. */
  async end(): Promise<void> {
    await this.workflow.signal(endSessionSignal);
  }

  /**
   * The whole text of one of the session's stored model answers (e.g. a feed event's `message`), or
   * `undefined` when the client has no content store (`contentStore` of the `ToolrailClient`).
   */
  readText(ref: ContentRef): Promise<string | undefined> {
    return readAssistantText(this.#content, this.sessionId, ref);
  }

  /**
   * The output of one of the session's stored tool results (e.g. a feed `tool_ended` event's `ref`):
   * the value the tool returned, or an {@link OffloadedToolOutput}; `undefined` when the client has
   * no content store or `ref` is not a tool result.
   */
  async readToolOutput(ref: ContentRef): Promise<{ output: unknown } | undefined> {
    if (this.#content === undefined) return undefined;
    const message = decodeMessage(await this.#content.get(this.sessionId, ref.key));
    return message.role === 'tool' ? { output: toolOutputOf(message) } : undefined;
  }

  /** Waits for the session to end and returns its final status. */
  result(): Promise<SessionStatusView> {
    return this.workflow.result();
  }
}

/** The whole text of a stored assistant message, when the client has the content store. */
async function readAssistantText(
  content: EncodedContent | undefined,
  sessionId: string,
  ref: ContentRef,
): Promise<string | undefined> {
  if (content === undefined) return undefined;
  const message = decodeMessage(await content.get(sessionId, ref.key));
  return message.role === 'assistant' ? message.text : undefined;
}

/** The entry with its preview replaced by the whole text of the message it references. */
async function withFullText(
  content: EncodedContent,
  sessionId: string,
  entry: TranscriptEntry,
): Promise<TranscriptEntry> {
  if (!('ref' in entry) || entry.ref === undefined) return entry;
  const message = decodeMessage(await content.get(sessionId, entry.ref.key));
  if (entry.kind === 'user' && message.role === 'user') return { ...entry, text: message.text };
  if (entry.kind === 'tool' && message.role === 'tool') return { ...entry, content: message.content };
  if (entry.kind === 'model' && message.role === 'assistant' && message.text !== undefined)
    return { ...entry, text: message.text };
  return entry;
}
