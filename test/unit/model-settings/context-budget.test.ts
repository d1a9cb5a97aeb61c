import { describe, expect, it } from 'vitest';
import { resolveContextBudget } from '../../../src/model-settings';

describe('resolveContextBudget', () => {
  it('takes the budget given, else the default of the model’s provider family', () => {
    expect(resolveContextBudget({ provider: 'anthropic.messages', contextBudgetBytes: 4_096 })).toBe(4_096);
    expect(resolveContextBudget({ provider: 'anthropic.messages' })).toBe(576_000);
    expect(resolveContextBudget({ provider: 'openai.responses' })).toBe(384_000);
    expect(resolveContextBudget({ provider: 'scripted' })).toBe(1_048_576);
    expect(resolveContextBudget({ provider: 'acme' })).toBe(384_000);
  });
});
