import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLiveChannel, sessionTopic } from '../../../src/live';
import type { LiveListener, LiveMessage, LiveState } from '../../../src/live';
import type { FeedEvent } from '../../../src/session';
import { startPostgres } from '../../harness/start-postgres';
import type { TestPostgres } from '../../harness/start-postgres';
import { pollUntil } from '../../helpers/poll-until';

const topic = sessionTopic('default', 'chat-1');
const text = (seq: number): LiveMessage => ({
  kind: 'text',
  topic,
  turn: 0,
  attempt: 1,
  seq,
  text: `piece ${seq}`,
  at: seq,
});
const turnStarted = (offset: number): FeedEvent => ({ offset, at: offset, run: 1, turn: 0, type: 'turn_started' });

function recorder(): { messages: LiveMessage[]; states: LiveState[] } & LiveListener {
  const messages: LiveMessage[] = [];
  const states: LiveState[] = [];
  return { messages, states, onMessage: (message) => messages.push(message), onState: (state) => states.push(state) };
}

describe('the PostgreSQL live channel', () => {
  let postgres: TestPostgres;
  const channels: PostgresLiveChannel[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(channels.splice(0).map((channel) => channel.close()));
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  function channel(): PostgresLiveChannel {
    const opened = new PostgresLiveChannel({ connectionString: postgres.url });
    channels.push(opened);
    return opened;
  }

  it('brings what one connection publishes to the subscribers of another, in order, each to its own topic', async () => {
    const publisher = channel();
    const subscriber = channel();
    const heard = recorder();
    const other = recorder();
    subscriber.subscribe(topic, heard);
    subscriber.subscribe(sessionTopic('default', 'chat-2'), other);
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.includes('up'),
    );
    for (let seq = 1; seq <= 300; seq++) publisher.publish(text(seq));
    const messages = await pollUntil(
      () => Promise.resolve(heard.messages),
      (all) => all.length === 300,
    );
    expect(messages).toEqual(Array.from({ length: 300 }, (_, index) => text(index + 1)));
    expect(other.messages).toEqual([]);
  });

  it('takes its subscriptions down when PostgreSQL stops, and up again once it is back', async () => {
    const publisher = channel();
    const subscriber = channel();
    const heard = recorder();
    subscriber.subscribe(topic, heard);
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.includes('up'),
    );
    await postgres.pause();
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.at(-1) === 'down',
    );
    // Published while the server is away: a feed message waits (to be told of), text is dropped.
    publisher.publish(text(1));
    await postgres.resume();
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.at(-1) === 'up',
      { timeoutMs: 60_000 },
    );
    expect(heard.states).toEqual(['up', 'down', 'up']);
    publisher.publish(text(2));
    const messages = await pollUntil(
      () => Promise.resolve(heard.messages),
      (all) => all.some((message) => message.kind === 'text' && message.seq === 2),
      { timeoutMs: 60_000 },
    );
    expect(messages.filter((message) => message.kind === 'text').map((message) => message.seq)).toEqual([2]);
  });

  it('sends a feed message too large for a notification as a `more`, for its subscribers to read the feed', async () => {
    const publisher = channel();
    const subscriber = channel();
    const heard = recorder();
    subscriber.subscribe(topic, heard);
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.includes('up'),
    );
    const large: FeedEvent = { offset: 1, at: 1, run: 1, turn: 0, type: 'notice', text: 'x'.repeat(8_000) };
    publisher.publish({ kind: 'events', topic, events: [turnStarted(0)] });
    publisher.publish({ kind: 'events', topic, events: [large, turnStarted(2)] });
    publisher.publish({ kind: 'events', topic, events: [turnStarted(3)] });
    const messages = await pollUntil(
      () => Promise.resolve(heard.messages),
      (all) => all.length === 3,
    );
    expect(messages).toEqual([
      { kind: 'events', topic, events: [turnStarted(0)] },
      { kind: 'more', topic, end: 3 },
      { kind: 'events', topic, events: [turnStarted(3)] },
    ]);
  });
});
