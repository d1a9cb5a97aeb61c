import type { ToolOutcome } from '../src/dispatch';
import { toolResultMessage } from '../src/dispatch';
import { TOOL_SEARCH_NAME } from '../src/dispatch';
import { previewOf, utf8ByteLength } from '../src/text';
import type { ConversationMessage } from '../src/models';
import type { ConversationReader } from '../src/conversation';
import type { DispatchedCall, MessageRef } from '../src/session';
import type { ContentStoreError } from '../src/store';
import { keepTrying } from './store-failures';

/** Outputs larger than this (as JSON, in UTF-8 bytes) reach the workflow as a preview unless the rules read them. */
const inlineOutputBytes = 8_192;
/** Characters of an offloaded (or unstored) result the model still reads, at most. */
const offloadPreviewChars = 2_000;

/** Stores one message, trying an unavailable store again until the deadline. */
type StoreMessage = (
  message: ConversationMessage,
) => Promise<{ value: MessageRef | undefined } | { error: ContentStoreError }>;

/** What {@link storeToolResult} needs to know about the call and the worker. */
export interface StoreToolResultOptions {
  conversation: ConversationReader;
  sessionId: string;
  outcome: ToolOutcome;
  /** The tool's `maxResultSizeChars`: longer outputs are offloaded. */
  maxResultSizeChars: number;
  /** Rendered results larger than this (UTF-8 bytes) are offloaded too. */
  resultOffloadBytes: number;
  /** Whether the rules read this call's output (it then comes back whole when it is not offloaded). */
  rulesReadOutput: boolean;
  /** Until when (epoch milliseconds) an unavailable store is tried again. */
  deadline: number;
}

/**
 * Stores the result of a call that ran, and returns what the workflow keeps. A result whose output
 * is longer than the tool's `maxResultSizeChars` (or whose text passes `resultOffloadBytes`) is
 * offloaded: the whole output is stored on its own and the model reads a preview and its key.
 * The content store is tried again until `deadline`; should it stay unavailable, the call is still
 * reported as having run: the workflow gets its outcome without a stored message (a preview, with
 * `storeError` saying why, when the output is large) and stores the message itself once the store is
 * back. Never rejects for a store error.
 */
export async function storeToolResult(options: StoreToolResultOptions): Promise<DispatchedCall> {
  const { conversation, sessionId, deadline } = options;
  const store: StoreMessage = (message) =>
    keepTrying(async () => (await conversation.storeMessages(sessionId, [message]))[0], deadline);
  const offloaded = await offloadIfLong(options, store);
  if ('storeError' in offloaded) return { outcome: offloaded.storeError };
  const stored = await store(toolResultMessage(offloaded.outcome));
  if ('error' in stored) return { outcome: unstoredOutcome(offloaded.outcome, stored.error.message) };
  return { outcome: forWorkflow(offloaded.outcome, options), ...(stored.value ? { message: stored.value } : {}) };
}

/** The outcome with a long output offloaded (the whole text stored, a preview and its key kept). */
async function offloadIfLong(
  { outcome, maxResultSizeChars, resultOffloadBytes }: StoreToolResultOptions,
  store: StoreMessage,
): Promise<{ outcome: ToolOutcome } | { storeError: ToolOutcome }> {
  const full = toolResultMessage(outcome);
  const tooBig = utf8ByteLength(full.content) > resultOffloadBytes;
  if (outcome.type === 'tool-error') {
    if (!tooBig) return { outcome };
    const stored = await store(full);
    const where =
      'value' in stored && stored.value
        ? `is stored in this session's content store as ${stored.value.key}`
        : 'could not be stored';
    const message = `${previewOf(outcome.message, offloadPreviewChars)}… (shortened: the whole message ${where})`;
    return { outcome: { ...outcome, message } };
  }
  const text = outputText(outcome.output);
  if (!tooBig && text.length <= maxResultSizeChars) return { outcome };
  const preview = previewOf(text, Math.min(offloadPreviewChars, maxResultSizeChars));
  const stored = await store(full);
  if ('error' in stored)
    return {
      storeError: { ...outcome, output: preview, fullSizeChars: text.length, storeError: stored.error.message },
    };
  return {
    outcome: {
      ...outcome,
      output: preview,
      fullSizeChars: text.length,
      ...(stored.value ? { offloadedTo: stored.value.key } : {}),
    },
  };
}

/**
 * What the workflow keeps of a stored result: no output (`null`) unless the rules read it or it is
 * `tool_search`'s (whose result reveals tools), as the stored message holds it; a read output whole
 * when it is small or the rules read it, else a preview.
 */
function forWorkflow(outcome: ToolOutcome, { rulesReadOutput }: StoreToolResultOptions): ToolOutcome {
  if (outcome.type === 'tool-error') return outcome;
  if (!rulesReadOutput && outcome.toolName !== TOOL_SEARCH_NAME) return { ...outcome, output: null };
  if (outcome.fullSizeChars !== undefined) return outcome;
  const text = outputText(outcome.output);
  if (rulesReadOutput || utf8ByteLength(text) <= inlineOutputBytes) return outcome;
  return { ...outcome, output: previewOf(text, offloadPreviewChars) };
}

/**
 * The outcome of a call whose result message could not be stored: the workflow stores the message
 * it renders from this, so it must be small (it travels in the activity's completion) and true: a
 * large output becomes a preview that says it ran and why the rest is not there.
 */
function unstoredOutcome(outcome: ToolOutcome, why: string): ToolOutcome {
  if (outcome.type === 'tool-error') return { ...outcome, message: previewOf(outcome.message, offloadPreviewChars) };
  // An offloaded output is stored already: the notice the workflow renders from the outcome is the one to store.
  if (outcome.fullSizeChars !== undefined)
    return outcome.offloadedTo === undefined ? { ...outcome, storeError: why } : outcome;
  const text = outputText(outcome.output);
  if (utf8ByteLength(text) <= inlineOutputBytes) return outcome;
  return { ...outcome, output: previewOf(text, offloadPreviewChars), fullSizeChars: text.length, storeError: why };
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}
