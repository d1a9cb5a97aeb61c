import { describe, expect, it } from 'vitest';
import { withUsual, withoutUsual } from '../../../src/kernel/usual-values';
import { usualContentRef, usualContextShown, usualMessageRef } from '../../../src/session/usual-refs';
import type { MessageRef } from '../../../src/session/conversation-log';
import type { ModelContextView } from '../../../src/session/session-views';

const key = 'ab'.repeat(32);

describe('the usual values of the model call’s and the tool activity’s results', () => {
  it('what a model was shown packs to its counts of messages and bytes when nothing was cut, within the default budget', () => {
    const shown: ModelContextView = { messages: 5, previewed: 0, omitted: 0, bytes: 2_409, budgetBytes: 1_048_576 };
    const usual = usualContextShown({ provider: 'scripted', model: 'scale' });
    expect(withoutUsual(shown, usual)).toEqual({ messages: 5, bytes: 2_409 });
    expect(withUsual<ModelContextView>(withoutUsual(shown, usual), usual)).toEqual(shown);
  });

  it('keeps counts that are not zero, and a budget that is not the settings’ usual one', () => {
    const shown: ModelContextView = { messages: 9, previewed: 2, omitted: 1, bytes: 380_000, budgetBytes: 400_000 };
    const usual = usualContextShown({ provider: 'openai', model: 'gpt' });
    expect(withoutUsual(shown, usual)).toEqual(shown);
    expect(withUsual<ModelContextView>(withoutUsual(shown, usual), usual)).toEqual(shown);
  });

  it('the usual budget is the settings’ own, else their provider’s default; a model given by id has none (it is kept)', () => {
    expect(usualContextShown({ provider: 'anthropic', model: 'claude' }).budgetBytes).toBe(576_000);
    expect(usualContextShown({ provider: 'openai', model: 'gpt', contextBudgetBytes: 4_096 }).budgetBytes).toBe(4_096);
    expect(usualContextShown({ id: 'fast' })).not.toHaveProperty('budgetBytes');
    const shown: ModelContextView = { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 384_000 };
    expect(withoutUsual(shown, usualContextShown({ id: 'fast' }))).toHaveProperty('budgetBytes', 384_000);
  });

  it('a message reference packs without its role and an empty preview; a preview is kept', () => {
    const sealed = { key, bytes: 779, preview: '' };
    expect(withoutUsual(sealed, usualContentRef)).toEqual({ key, bytes: 779 });
    expect(withUsual(withoutUsual(sealed, usualContentRef), usualContentRef)).toEqual(sealed);
    const tool: MessageRef = { role: 'tool', key, bytes: 1_087, preview: 'page 0: lorem ipsum' };
    expect(withoutUsual(tool, usualMessageRef('tool'))).toEqual({ key, bytes: 1_087, preview: 'page 0: lorem ipsum' });
    expect(withUsual<MessageRef>(withoutUsual(tool, usualMessageRef('tool')), usualMessageRef('tool'))).toEqual(tool);
  });

  it('reads references and views in their full form (as earlier versions returned them) as they are', () => {
    const user: MessageRef = { role: 'user', key, bytes: 3, preview: 'hi!' };
    expect(withUsual<MessageRef>(user, usualMessageRef('tool'))).toEqual(user);
    const shown: ModelContextView = { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 2_048 };
    expect(withUsual<ModelContextView>(shown, usualContextShown({ provider: 'scripted', model: 's' }))).toEqual(shown);
  });
});
