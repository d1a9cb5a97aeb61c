import { describe, expect, it } from 'vitest';
import { createModelResolver, createScriptedModel, ModelError, textResponse } from '../../../src/models';

function configurationError(work: () => unknown): ModelError {
  try {
    work();
  } catch (error) {
    if (ModelError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ModelError');
}

describe('createModelResolver', () => {
  const scripted = createScriptedModel([textResponse('hi')]);

  it('resolves an id to the worker’s model and its defaults, the session’s settings first', () => {
    const resolve = createModelResolver({
      models: { plain: scripted, streamer: { model: scripted, stream: true, contextBudgetBytes: 50_000 } },
    });
    expect(resolve({ id: 'plain' })).toMatchObject({ model: scripted, stream: false, contextBudgetBytes: undefined });
    expect(resolve({ id: 'streamer' })).toMatchObject({ stream: true, contextBudgetBytes: 50_000 });
    expect(resolve({ id: 'streamer', stream: false, contextBudgetBytes: 4_096, temperature: 0 })).toMatchObject({
      stream: false,
      contextBudgetBytes: 4_096,
      generation: { temperature: 0, stream: false, contextBudgetBytes: 4_096 },
    });
  });

  it('asks the registry for ids the worker was not given, and says what it has when neither knows one', () => {
    const resolve = createModelResolver({
      models: { plain: scripted },
      modelRegistry: {
        languageModel: (id) => {
          if (id === 'acme:desk') return scripted;
          throw new Error(`No such model: ${id}`);
        },
      },
    });
    expect(resolve({ id: 'acme:desk' }).model).toBe(scripted);
    const error = configurationError(() => resolve({ id: 'acme:other' }));
    expect(error).toMatchObject({ code: 'CONFIGURATION', retryable: false });
    expect(error.message).toContain(
      'no model "acme:other" on this worker (its models: plain; the model registry says: No such model: acme:other)',
    );
    expect(configurationError(() => createModelResolver()({ id: 'x' })).message).toContain(
      'no model "x" on this worker (its models: none); give it in createWorker({ models }) or a modelRegistry',
    );
  });

  it('builds the official providers’ models from provider settings, once per connection setting', () => {
    const resolve = createModelResolver({
      env: { OPENAI_API_KEY: 'sk-test', TEAM_KEY: 'sk-team', ANTHROPIC_API_KEY: 'a' },
    });
    const chat = resolve({ provider: 'openai', model: 'gpt-4.1' });
    expect(chat.model).toMatchObject({ provider: 'openai.chat', modelId: 'gpt-4.1', specificationVersion: 'v4' });
    expect(chat.generation).toEqual({ strictTools: 'auto' });
    expect(resolve({ provider: 'openai', model: 'gpt-4.1', temperature: 1 }).model).toBe(chat.model);
    expect(resolve({ provider: 'openai', model: 'gpt-4.1', apiKeyEnv: 'TEAM_KEY' }).model).not.toBe(chat.model);
    expect(resolve({ provider: 'openai-responses', model: 'gpt-5.4-mini' }).model).toMatchObject({
      provider: 'openai.responses',
    });
    const claude = resolve({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(claude.model).toMatchObject({ provider: 'anthropic.messages', modelId: 'claude-sonnet-5-5' });
    expect(claude.generation).toEqual({});
  });

  it('refuses a missing key (unless a base URL is given), an unknown script and invalid settings', () => {
    const resolve = createModelResolver({ env: {}, scriptedModels: new Map([['desk', scripted]]) });
    expect(configurationError(() => resolve({ provider: 'anthropic', model: 'claude-sonnet-5-5' })).message).toBe(
      'anthropic: set ANTHROPIC_API_KEY to an API key (or give a baseUrl for a local server)',
    );
    expect(resolve({ provider: 'openai', model: 'llama', baseUrl: 'http://localhost:8000/v1' }).model).toMatchObject({
      provider: 'openai.chat',
    });
    expect(configurationError(() => resolve({ provider: 'scripted', model: 'other' })).message).toBe(
      'scripted: no scripted model named "other" is registered (known: desk)',
    );
    expect(resolve({ provider: 'scripted', model: 'desk' }).model).toBe(scripted);
    expect(configurationError(() => resolve({ id: 'x', temperature: -1 })).message).toMatch(
      /^model: invalid model settings: temperature: /,
    );
  });
});
