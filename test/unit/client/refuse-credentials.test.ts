import { Client } from '@temporalio/client';
import { expect, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { compileRules } from '../../helpers/compile-rules';

it('refuses a model base URL with credentials before anything reaches Temporal, without repeating them', async () => {
  // A lazy connection: any call that reached the server would fail to connect, not be refused.
  const toolrail = new ToolrailClient({ client: new Client() });
  const started = toolrail.startSession({
    rules: compileRules('toolrail: 1\nrules: []\n'),
    model: { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: 'https://ada-admin:sk-live-secret@llm.example/v1' },
  });
  const error = await started.then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
  expect(error?.message).toMatch(/^model\.baseUrl must not carry credentials \(https:\/\/\*\*\*@llm\.example\)/);
  expect(error?.message).not.toContain('sk-live-secret');
  expect(error?.message).not.toContain('ada-admin');
});
