import { usualContextBudget } from '../kernel';
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
