import { describe, expect, it } from 'vitest';
import { parseModelSettings } from '../../../src/model-settings';

describe('parseModelSettings', () => {
  it('takes a model by id or by provider, with generation settings and a context budget', () => {
    for (const settings of [
      { id: 'fast', temperature: 0.2, maxOutputTokens: 1_024, contextBudgetBytes: 200_000, stream: true },
      {
        provider: 'anthropic',
        model: 'claude-sonnet-5-5',
        baseUrl: 'https://proxy.example/anthropic',
        apiKeyEnv: 'TEAM_ANTHROPIC_KEY',
        topK: 40,
        stopSequences: ['END'],
        providerOptions: { anthropic: { thinking: { type: 'adaptive' } } },
      },
      { provider: 'openai-responses', model: 'gpt-5.4-mini', reasoning: 'low', seed: 7, topP: 1 },
      { provider: 'scripted', model: 'desk', parallelToolCalls: false, strictTools: 'auto' },
    ]) {
      expect(parseModelSettings(settings)).toEqual({ ok: true, settings });
    }
  });

  it('refuses values out of range, naming each field', () => {
    const parsed = parseModelSettings({
      id: 'fast',
      temperature: 2.5,
      topP: 0,
      maxOutputTokens: 0,
      seed: 1.5,
      stopSequences: [''],
      contextBudgetBytes: 100,
    });
    expect(parsed.ok).toBe(false);
    const message = parsed.ok ? '' : parsed.message;
    for (const field of ['temperature', 'topP', 'maxOutputTokens', 'seed', 'stopSequences.0', 'contextBudgetBytes']) {
      expect(message).toMatch(new RegExp(`(^|; |: )${field.replace('.', '\\.')}: `));
    }
  });

  it('refuses unknown fields, a model named both ways or neither, and the reserved provider options key', () => {
    const problems = [
      [{ id: 'fast', temprature: 0.2 }, 'Unrecognized key: "temprature"'],
      [{ id: 'fast', provider: 'openai', model: 'gpt' }, 'provider: give either id'],
      [{ temperature: 0.2 }, 'id: give id (a model the worker was given), or provider'],
      [{ provider: 'openai' }, 'model: give the openai model name'],
      [{ id: 'fast', baseUrl: 'http://localhost:8000/v1' }, 'baseUrl: give either id'],
      [{ provider: 'mistral', model: 'large' }, 'provider: Invalid option'],
      [{ id: 'fast', providerOptions: { toolrail: { turn: 3 } } }, 'providerOptions: the key "toolrail" is reserved'],
    ] as const;
    for (const [settings, expected] of problems) {
      const parsed = parseModelSettings(settings);
      expect(parsed.ok ? 'accepted' : parsed.message, JSON.stringify(settings)).toContain(expected);
    }
  });
});
