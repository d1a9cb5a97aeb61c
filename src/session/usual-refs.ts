import {
  packContentKey,
  previewChars,
  previewOf,
  unpackContentKey,
  usualContextBudget,
  withUsual,
  withoutUsual,
} from '../kernel';
import type { ModelSettings } from '../kernel';
import type { ContentRef } from '../store';
import type { MessageRef, MessageRole } from './conversation-log';
import type { ModelContextView } from './session-views';

// What the activities' results usually hold, left out of history (`withoutUsual`) and filled back
// in by the workflow (`withUsual`): a reference's empty preview, a message's role (the model call
// stores an assistant message, the tool activity a tool result), and a model request that showed
// everything within the usual budget.

/** A content reference's usual values: no preview (a sealed segment has none). */
export const usualContentRef: Pick<ContentRef, 'preview'> = { preview: '' };

/** A message reference's usual values, for the messages of `role`. */
export function usualMessageRef(role: MessageRole): Pick<MessageRef, 'role' | 'preview'> {
  return { role, preview: '' };
}

/** What a model request usually showed: nothing previewed or left out, within the usual budget of `settings`. */
export function usualContextShown(
  settings: ModelSettings,
): Pick<ModelContextView, 'previewed' | 'omitted'> & Partial<Pick<ModelContextView, 'budgetBytes'>> {
  const budgetBytes = usualContextBudget(settings);
  return { previewed: 0, omitted: 0, ...(budgetBytes === undefined ? {} : { budgetBytes }) };
}

/**
 * A stored reference as an activity's result carries it through history: its key packed
 * (`packContentKey`, base64url), the fields at `usual`'s values left out.
 */
export function packStoredRef<T extends { key: string }, K extends keyof T>(
  ref: T,
  usual: Partial<Omit<T, K>>,
): Pick<T, K> & Partial<T> {
  return { ...withoutUsual(ref, usual as Partial<T>), key: packContentKey(ref.key) } as Pick<T, K> & Partial<T>;
}

/** A reference packed by {@link packStoredRef} (or whole, as earlier versions returned it) whole again. */
export function unpackStoredRef<T extends { key: string }>(packed: Partial<T> & { key: string }, usual: Partial<T>): T {
  return withUsual<T>({ ...packed, key: unpackContentKey(packed.key) }, usual);
}

/** The human text of an assistant message: its text, else its calls (`→ name(args)`, space-separated). */
export function assistantMessageText(
  text: string | undefined,
  toolCalls: readonly { readonly name: string; readonly args: unknown }[],
): string {
  if (text) return text;
  return toolCalls.map((call) => `→ ${call.name}(${JSON.stringify(call.args) ?? ''})`).join(' ');
}

/**
 * What the reference of a model call's stored response usually holds: the role, and the preview
 * its text or calls give (`assistantMessageText`; no calls when they do not run).
 */
export function usualAssistantRef(
  response: {
    readonly text?: string;
    readonly toolCalls: readonly { readonly name: string; readonly args: unknown }[];
  },
  callsRun: boolean,
): Pick<MessageRef, 'role' | 'preview'> {
  return {
    role: 'assistant',
    preview: previewOf(assistantMessageText(response.text, callsRun ? response.toolCalls : []), previewChars),
  };
}

/** A response's usual finish reason: `tool-calls` when it made calls, else `stop`. */
export function usualFinishReason(toolCallCount: number): 'tool-calls' | 'stop' {
  return toolCallCount > 0 ? 'tool-calls' : 'stop';
}
