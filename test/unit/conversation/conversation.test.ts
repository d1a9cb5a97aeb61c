import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildModelMessages } from '../../../src/conversation/build-model-messages';
import { appendToLog, emptyConversationLog } from '../../../src/session/conversation-log';
import type { ConversationLog, MessageRef } from '../../../src/session/conversation-log';
import { createConversationReader } from '../../../src/conversation/conversation-reader';
import { decodeMessage, encodeMessage } from '../../../src/conversation/encode-message';
import { previewOf, truncateUtf8, utf8ByteLength } from '../../../src/text/utf8';
import type { ConversationMessage } from '../../../src/models';
import type { ContentStore } from '../../../src/store/content-store';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { encodedContent } from '../../../src/store/encoded-content';
import { sha256Hex } from '../../../src/store/hash-content';

describe('UTF-8 sizes', () => {
  it('counts bytes as Node encodes them: ASCII 1, Latin 2, CJK 3, emoji 4, a lone surrogate 3', () => {
    for (const text of ['hello', 'café', '漢字', '👋🏽', 'a\ud800b', '', 'mixed 漢 é 👋']) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('truncates to a byte limit without splitting a character', () => {
    expect(truncateUtf8('ab👋cd', 3)).toBe('ab');
    expect(truncateUtf8('ab👋cd', 6)).toBe('ab👋');
    expect(truncateUtf8('漢字', 5)).toBe('漢');
    expect(truncateUtf8('short', 100)).toBe('short');
  });

  it('cuts a preview before half a surrogate pair', () => {
    expect(previewOf('ab👋', 3)).toBe('ab');
    expect(previewOf('abc', 3)).toBe('abc');
    expect(previewOf('a\ud800bc', 3)).toBe('a\ud800b');
  });

  it('keeps a preview without the text it was taken from: 100 previews of 1 MB texts hold well under 1 MB', () => {
    const collectGarbage = garbageCollector();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const previews = Array.from({ length: 100 }, (_, index) => previewOf(`${index} `.repeat(500_000).concat('.'), 200));
    collectGarbage();
    const held = process.memoryUsage().heapUsed - before;
    expect(previews[99]).toHaveLength(200);
    expect(held).toBeLessThan(1_000_000);
  });
});

/** V8's `gc()`, made callable in this process. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('message encoding', () => {
  it('round-trips a message and gives the same message the same bytes', () => {
    const message: ConversationMessage = {
      role: 'tool',
      callId: 'c1',
      toolName: 'read',
      content: 'x'.repeat(500),
      isError: false,
    };
    const first = encodeMessage(message);
    expect(decodeMessage(first.bytes)).toEqual(message);
    expect(encodeMessage({ ...message }).bytes).toEqual(first.bytes);
    expect(first.ref).toMatchObject({ role: 'tool', bytes: first.bytes.length, preview: 'x'.repeat(200) });
  });

  it('previews an assistant message without text by its calls', () => {
    const { ref } = encodeMessage({ role: 'assistant', toolCalls: [{ id: 'a', name: 'lookup', args: { id: 7 } }] });
    expect(ref.preview).toBe('→ lookup({"id":7})');
  });

  it('refuses bytes that are not a message', () => {
    expect(() => decodeMessage(Buffer.from('{"role":"robot"}'))).toThrow(/not a conversation message/);
  });
});

describe('the conversation reader', () => {
  let directory: string;
  let store: ContentStore & { reads: string[] };
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-reader-'));
    const inner = new DirectoryContentStore(directory);
    const reads: string[] = [];
    store = {
      description: inner.description,
      reads,
      put: (sessionId, key, bytes) => inner.put(sessionId, key, bytes),
      get: (sessionId, key) => (reads.push(key), inner.get(sessionId, key)),
      putRecord: (sessionId, name, bytes) => inner.putRecord(sessionId, name, bytes),
      getRecord: (sessionId, name) => inner.getRecord(sessionId, name),
      deleteSession: (sessionId) => inner.deleteSession(sessionId),
      listSessions: () => inner.listSessions(),
      close: () => inner.close(),
    };
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  async function logOf(count: number): Promise<{ log: ConversationLog; refs: MessageRef[] }> {
    const writer = createConversationReader(encodedContent(store));
    const messages = Array.from({ length: count }, (_, index): ConversationMessage => ({
      role: 'user',
      text: `message ${index}`,
    }));
    const refs = await writer.storeMessages('s', messages);
    let log = emptyConversationLog;
    for (const ref of refs) {
      log = appendToLog(log, [ref]);
      if (log.tail.length >= 32) log = await writer.sealTail('s', log);
    }
    return { log, refs };
  }

  it('reads back every entry of a log sealed into segments, oldest first', async () => {
    const { log, refs } = await logOf(100);
    expect(log.tail).toHaveLength(100 - 3 * 32);
    const reader = createConversationReader(encodedContent(store));
    expect(await reader.readLog('s', log)).toEqual(refs);
    expect(
      (await reader.readMessages('s', refs.slice(-2))).map((message) => message.role === 'user' && message.text),
    ).toEqual(['message 98', 'message 99']);
  });

  it('reads each segment from the store once, however often the log is read', async () => {
    const { log } = await logOf(100);
    const reader = createConversationReader(encodedContent(store));
    await reader.readLog('s', log);
    const afterFirst = store.reads.length;
    await reader.readLog('s', log);
    await reader.readLog('s', log);
    expect(afterFirst).toBe(3);
    expect(store.reads).toHaveLength(3);
  });

  it('keeps within its cache bound what was read lately, and lets go first of what was not read since', async () => {
    const text = (name: string): ConversationMessage => ({ role: 'user', text: `${name} ${'x'.repeat(100)}` });
    const [a] = await createConversationReader(encodedContent(store)).storeMessages('s', [text('a')]);
    const messageBytes = a?.bytes ?? 0;
    // Room for two messages: storing one caches it.
    const reader = createConversationReader(encodedContent(store), { cacheBytes: 2 * messageBytes });
    const [first, second] = await reader.storeMessages('s', [text('a'), text('b')]);
    await reader.readMessages('s', [first as MessageRef]);
    await reader.storeMessages('s', [text('c')]);
    expect(store.reads).toEqual([]);
    await reader.readMessages('s', [first as MessageRef]);
    expect(store.reads).toEqual([]);
    await reader.readMessages('s', [second as MessageRef]);
    expect(store.reads).toEqual([second?.key]);
  });

  it('lets go of what was not read for its idle time, once new content comes, and keeps what was read', async () => {
    const clock = { ms: 1_000_000, now: () => clock.ms };
    const reader = createConversationReader(encodedContent(store), { cacheIdleMs: 60_000, clock });
    const text = (name: string): ConversationMessage => ({ role: 'user', text: name });
    const [idle, busy] = await reader.storeMessages('s', [text('idle'), text('busy')]);
    clock.ms += 50_000;
    await reader.readMessages('s', [busy as MessageRef]);
    clock.ms += 50_000;
    await reader.storeMessages('s', [text('new')]);
    await reader.readMessages('s', [busy as MessageRef]);
    expect(store.reads).toEqual([]);
    await reader.readMessages('s', [idle as MessageRef]);
    expect(store.reads).toEqual([idle?.key]);
  });

  it('stores a message under the SHA-256 of its bytes, the same message under the same key', async () => {
    const reader = createConversationReader(encodedContent(store));
    const message: ConversationMessage = { role: 'user', text: 'the same twice' };
    const [first] = await reader.storeMessages('s', [message]);
    const [second] = await reader.storeMessages('s', [{ ...message }]);
    expect(first?.key).toBe(sha256Hex(encodeMessage(message).bytes));
    expect(second?.key).toBe(first?.key);
  });

  it('seals the same tail under the same key (a retried activity writes nothing new)', async () => {
    const { log } = await logOf(10);
    const reader = createConversationReader(encodedContent(store));
    const first = await reader.sealTail('s', log);
    const second = await reader.sealTail('s', log);
    expect(second.head?.key).toBe(first.head?.key);
    expect(first).toMatchObject({ tail: [], count: 10 });
  });

  it('seals a log sealed after every response into one segment per 32 entries, and reads it back by its keys', async () => {
    const writer = createConversationReader(encodedContent(store));
    const refs = await writer.storeMessages(
      's',
      Array.from({ length: 100 }, (_, index): ConversationMessage => ({ role: 'user', text: `message ${index}` })),
    );
    // As the model call does: what came since the last response (here three messages at a time) is sealed after the head.
    let head: string | null = null;
    for (let start = 0; start < 99; start += 3)
      head = (await writer.sealAfter('s', head, refs.slice(start, start + 3))).key;
    const tail = refs.slice(99).map((ref) => ref.key);
    const reader = createConversationReader(encodedContent(store));
    expect(await reader.readLogKeys('s', { head, tail })).toEqual(refs);
    // 99 entries sealed three at a time: a segment takes the one before it over while that holds fewer than 32, so three of 33.
    expect(store.reads.filter((key) => !refs.some((ref) => ref.key === key))).toHaveLength(3);
  });

  it('seals the same entries after the same head under the same key (a retried model call writes nothing new)', async () => {
    const writer = createConversationReader(encodedContent(store));
    const refs = await writer.storeMessages('s', [
      { role: 'user', text: 'one' },
      { role: 'user', text: 'two' },
    ]);
    const first = await writer.sealAfter('s', null, refs.slice(0, 1));
    const again = await writer.sealAfter('s', first.key, refs.slice(1));
    expect(await writer.sealAfter('s', first.key, refs.slice(1))).toEqual(again);
    expect(
      await createConversationReader(encodedContent(store)).readLogKeys('s', { head: again.key, tail: [] }),
    ).toEqual(refs);
  });

  it('fails with the session and the key named when a segment is missing', async () => {
    const { log } = await logOf(40);
    await store.deleteSession('s');
    await expect(createConversationReader(encodedContent(store)).readLog('s', log)).rejects.toThrow(
      new RegExp(`Content ${log.head?.key ?? ''} of session "s" is not in`),
    );
  });
});

describe('the context budget', () => {
  const turn = (index: number, resultBytes: number): ConversationMessage[] => [
    { role: 'assistant', toolCalls: [{ id: `call_${index}`, name: 'read', args: { page: index } }] },
    {
      role: 'tool',
      callId: `call_${index}`,
      toolName: 'read',
      content: `${index}:`.padEnd(resultBytes, 'r'),
      isError: false,
    },
  ];
  const conversation: ConversationMessage[] = [
    { role: 'user', text: 'Read every page.' },
    ...Array.from({ length: 20 }, (_, index) => turn(index, 2_000)).flat(),
  ];
  const encoded = conversation.map(encodeMessage);
  const refs = encoded.map(({ ref, bytes }): MessageRef => ({ ...ref, key: sha256Hex(bytes) }));
  const byKey = new Map(refs.map((ref, index) => [ref.key, conversation[index] as ConversationMessage]));
  const loaded: MessageRef[][] = [];
  const load = (wanted: readonly MessageRef[]): Promise<ConversationMessage[]> => {
    loaded.push([...wanted]);
    return Promise.resolve(wanted.map((ref) => byKey.get(ref.key) as ConversationMessage));
  };
  beforeEach(() => {
    loaded.length = 0;
  });

  it('shows everything whole when it fits', async () => {
    const { messages, shown } = await buildModelMessages(refs, load, { budgetBytes: 1_000_000 });
    expect(messages).toEqual(conversation);
    expect(shown).toMatchObject({ messages: 41, full: 41, previewed: 0, omitted: 0 });
  });

  it('shortens the oldest results to their preview first, keeping every call paired with its result', async () => {
    const { messages, shown } = await buildModelMessages(refs, load, { budgetBytes: 20_000 });
    expect(shown.omitted).toBe(0);
    expect(shown.previewed).toBeGreaterThan(0);
    expect(shown.bytes).toBeLessThanOrEqual(20_000);
    expect(messages[0]).toEqual(conversation[0]);
    expect(messages.at(-1)).toEqual(conversation.at(-1));
    const calls = messages.flatMap((message) =>
      message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : [],
    );
    const results = messages.flatMap((message) => (message.role === 'tool' ? [message.callId] : []));
    expect(results).toEqual(calls);
    const shortened = messages.find((message) => message.role === 'tool' && message.content.startsWith('[toolrail]'));
    expect(shortened).toMatchObject({ role: 'tool', callId: 'call_0' });
    // Only what is shown whole was read.
    const read = loaded.flat();
    expect(read.filter((ref) => ref.role === 'tool')).toHaveLength(20 - shown.previewed);
  });

  it('leaves the oldest turns out with one note when even previews do not fit, keeping the first message', async () => {
    const { messages, shown } = await buildModelMessages(refs, load, { budgetBytes: 2_500 });
    expect(shown.omitted).toBeGreaterThan(0);
    expect(shown.omitted % 2).toBe(0);
    expect(messages[0]).toEqual(conversation[0]);
    const note = messages[1];
    expect(note?.role === 'user' ? note.text : '').toMatch(/^\[toolrail\] \d+ earlier messages/);
    expect(messages[2]?.role).toBe('assistant');
  });
});
