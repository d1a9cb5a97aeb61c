import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeToolResult } from '../../../activities/store-tool-result';
import type { StoreToolResultOptions } from '../../../activities/store-tool-result';
import type { DispatchedCall } from '../../../src/session';
import { createConversationReader, decodeMessage } from '../../../src/conversation';
import { renderToolOutcome } from '../../../src/dispatch/render-tool-outcome';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { encodedContent } from '../../../src/store/encoded-content';
import { FlakyContentStore } from '../../helpers/flaky-content-store';

describe('storing the result of a call that ran', () => {
  let directory: string;
  let store: FlakyContentStore;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-result-'));
    store = new FlakyContentStore(new DirectoryContentStore(directory));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const options = (output: string, more: Partial<StoreToolResultOptions> = {}): StoreToolResultOptions => ({
    conversation: createConversationReader(encodedContent(store)),
    sessionId: 's1',
    outcome: { type: 'tool-result', callId: 'c1', toolName: 'dump', output },
    maxResultSizeChars: 1_000,
    resultOffloadBytes: 262_144,
    rulesReadOutput: false,
    deadline: Date.now() + 5_000,
    ...more,
  });
  const run = (input: StoreToolResultOptions): Promise<DispatchedCall> =>
    new MockActivityEnvironment().run(storeToolResult, input);

  it('offloads an output over maxResultSizeChars to the content store: the model reads a preview and its key', async () => {
    const executed = await run(options('y'.repeat(5_000), { rulesReadOutput: true }));
    expect(executed.outcome).toMatchObject({ output: 'y'.repeat(1_000), fullSizeChars: 5_000 });
    const key = executed.outcome.type === 'tool-result' ? (executed.outcome.offloadedTo ?? '') : '';
    const whole = decodeMessage(await store.get('s1', key));
    expect(whole).toMatchObject({ role: 'tool', content: 'y'.repeat(5_000) });
    const told = decodeMessage(await store.get('s1', executed.message?.key ?? ''));
    expect(told).toMatchObject({ role: 'tool', content: renderToolOutcome(executed.outcome) });
  });

  it('keeps trying an unavailable store until it is back, within the deadline', async () => {
    store.fail('connection reset');
    const storing = run(options('refunded'));
    for (let tries = 0; store.refused < 2 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    store.heal();
    const executed = await storing;
    expect(executed.message).toBeDefined();
    expect(executed.outcome).toMatchObject({ output: null });
    expect(decodeMessage(await store.get('s1', executed.message?.key ?? ''))).toMatchObject({ content: 'refunded' });
  });

  it('keeps an output the rules do not read out of the workflow (null): the stored message holds it, read outputs come back whole', async () => {
    const unread = await run(options('refunded'));
    expect(unread.outcome).toMatchObject({ output: null });
    expect(decodeMessage(await store.get('s1', unread.message?.key ?? ''))).toMatchObject({ content: 'refunded' });
    const read = await run(options('refunded', { rulesReadOutput: true }));
    expect(read.outcome).toMatchObject({ output: 'refunded' });
    const search = await run({
      ...options('found: lookup_order'),
      outcome: { type: 'tool-result', callId: 'c2', toolName: 'tool_search', output: 'found: lookup_order' },
    });
    expect(search.outcome).toMatchObject({ output: 'found: lookup_order' });
  });

  it('reports a call whose result could not be stored by the deadline as having run: small outputs whole, larger ones as a preview saying why', async () => {
    store.fail('connect ECONNREFUSED');
    const small = await run(options('refunded', { deadline: Date.now() + 300 }));
    expect(small).toEqual({ outcome: { type: 'tool-result', callId: 'c1', toolName: 'dump', output: 'refunded' } });

    const large = await run(options('z'.repeat(20_000), { maxResultSizeChars: 50_000, deadline: Date.now() + 300 }));
    expect(large.message).toBeUndefined();
    expect(large.outcome).toMatchObject({ output: 'z'.repeat(2_000), fullSizeChars: 20_000 });
    const text = renderToolOutcome(large.outcome);
    expect(text).toContain('dump ran and returned 20,000 characters');
    expect(text).toContain('ECONNREFUSED');
    expect(text).not.toMatch(/retry|failed/i);
  });
});
