import { describe, expect, it } from 'vitest';
import { cancelTopic, readLiveMessage, sessionTopic } from '../../../src/live';

const event = (offset: number) => ({ offset, at: 0, run: 1, turn: 0, type: 'turn_started' });

describe('reading a live message', () => {
  it('takes the messages toolrail sends', () => {
    const topic = sessionTopic('default', 'chat-7');
    const messages = [
      { kind: 'events', topic, events: [event(3), event(4)] },
      { kind: 'more', topic, end: 12 },
      { kind: 'text', topic, turn: 0, attempt: 1, seq: 1, text: 'Hi', at: 5 },
      { kind: 'cancel', topic: cancelTopic('default'), session: 'chat-7', callIds: ['c1'], model: true },
    ];
    for (const message of messages) expect(readLiveMessage(message)).toEqual(message);
  });

  it('refuses events that skip an offset, and anything of another shape', () => {
    const topic = sessionTopic('default', 'chat-7');
    for (const value of [
      { kind: 'events', topic, events: [event(3), event(5)] },
      { kind: 'events', topic, events: [] },
      { kind: 'more', topic, end: -1 },
      { kind: 'text', topic, turn: 0, attempt: 1, seq: 1.5, text: 'Hi', at: 5 },
      { kind: 'cancel', topic, session: 'chat-7', callIds: [1], model: false },
      { kind: 'other', topic },
      { kind: 'more', end: 3 },
      'events',
      null,
    ])
      expect(readLiveMessage(value)).toBeUndefined();
  });

  it('names a session topic after its namespace and id, apart from the namespace of cancellations', () => {
    expect(sessionTopic('prod', 'a/b')).toBe('session/prod/a/b');
    expect(cancelTopic('prod')).toBe('cancel/prod');
  });
});
