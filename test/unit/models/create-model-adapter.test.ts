import { afterEach, describe, expect, it } from 'vitest';
import { createModelAdapter, createScriptedModel, ModelError, textResponse } from '../../../src/models';
import { ticketRequest } from './support-desk';
import { loadWireFixture, startWireServer, type WireServer } from './wire-server';

function configurationError(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (ModelError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected createModelAdapter to throw');
}

describe('createModelAdapter', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('builds an OpenAI adapter that sends the key from OPENAI_API_KEY', async () => {
    server = await startWireServer([loadWireFixture('openai', 'text-answer')]);
    const model = createModelAdapter(
      { provider: 'openai', model: 'gpt-4.1', baseUrl: `${server.url}/v1` },
      { env: { OPENAI_API_KEY: 'sk-from-env' } },
    );
    expect(model.provider).toBe('openai');
    await model.complete(ticketRequest(), { signal: new AbortController().signal });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-from-env');
  });

  it('builds an Anthropic adapter that reads the key from the variable apiKeyEnv names and passes settings on', async () => {
    server = await startWireServer([loadWireFixture('anthropic', 'text-answer')]);
    const model = createModelAdapter(
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        baseUrl: server.url,
        apiKeyEnv: 'TEAM_KEY',
        parallelToolCalls: false,
      },
      { env: { TEAM_KEY: 'sk-ant-team', ANTHROPIC_API_KEY: 'sk-ant-default' } },
    );
    expect(model.provider).toBe('anthropic');
    await model.complete(ticketRequest(), { signal: new AbortController().signal });
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(JSON.stringify(server.requests[0]?.headers)).toContain('sk-ant-team');
    expect(server.requests[0]?.body).toMatchObject({ tool_choice: { disable_parallel_tool_use: true } });
  });

  it('refuses to build a hosted adapter whose key variable is unset, naming the variable', () => {
    const error = configurationError(() => createModelAdapter({ provider: 'anthropic', model: 'claude' }, { env: {} }));
    expect(error).toMatchObject({ code: 'CONFIGURATION', retryable: false });
    expect(error.message).toContain('ANTHROPIC_API_KEY');
  });

  it('allows a custom baseUrl without a key, for local OpenAI-compatible servers', () => {
    expect(
      createModelAdapter({ provider: 'openai', model: 'llama3', baseUrl: 'http://127.0.0.1:11434/v1' }, { env: {} })
        .provider,
    ).toBe('openai');
  });

  it('returns the scripted model registered under the settings model name', () => {
    const script = createScriptedModel([textResponse('hi')]);
    const model = createModelAdapter(
      { provider: 'scripted', model: 'support-desk' },
      { scriptedModels: new Map([['support-desk', script]]) },
    );
    expect(model).toBe(script);
  });

  it('names the known scripts when the requested one is missing', () => {
    const error = configurationError(() =>
      createModelAdapter(
        { provider: 'scripted', model: 'nope' },
        { scriptedModels: new Map([['support-desk', createScriptedModel([])]]) },
      ),
    );
    expect(error.message).toContain('no scripted model named "nope" is registered (known: support-desk)');
  });

  it('rejects settings that do not parse, saying which field is wrong', () => {
    const error = configurationError(() =>
      createModelAdapter(JSON.parse('{"provider":"gemini","model":"x"}') as never, { env: {} }),
    );
    expect(error).toMatchObject({ code: 'CONFIGURATION', retryable: false });
    expect(error.message).toContain('provider:');
    const badUrl = configurationError(() =>
      createModelAdapter({ provider: 'openai', model: 'x', baseUrl: 'not a url' }, { env: { OPENAI_API_KEY: 'k' } }),
    );
    expect(badUrl.message).toContain('baseUrl:');
  });
});
