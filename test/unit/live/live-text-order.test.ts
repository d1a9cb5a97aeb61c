import { describe, expect, it } from 'vitest';
import { LiveTextOrder } from '../../../src/client/live-text-order';
import type { LiveText } from '../../../src/live';
import type { FeedEvent } from '../../../src/session';

const topic = 'session/default/s';

function piece(turn: number, attempt: number, seq: number, text = `${attempt}.${seq} `): LiveText {
  return { kind: 'text', topic, turn, attempt, seq, text, at: 1_000 + seq };
}

function started(offset: number, turn: number): FeedEvent {
  return { offset, at: 0, run: 1, turn, type: 'model_call_started', tools: 0 };
}

function responded(offset: number, turn: number): FeedEvent {
  return {
    offset,
    at: 0,
    run: 1,
    turn,
    type: 'model_responded',
    calls: [],
    message: { key: 'k', bytes: 1, preview: '' },
  };
}

const texts = (events: { text: string }[]): string[] => events.map((event) => event.text);

describe('the order of live text', () => {
  it('shows the pieces of the call in progress once and in order, each as a live text_delta after the last durable event', () => {
    const order = new LiveTextOrder();
    expect(order.delivered(started(4, 0))).toEqual([]);
    const first = order.offered(piece(0, 1, 1), 4);
    expect(first).toEqual([
      { offset: 4, at: 1_001, run: 1, turn: 0, type: 'text_delta', attempt: 1, text: '1.1 ', live: true },
    ]);
    expect(texts(order.offered(piece(0, 1, 2), 4))).toEqual(['1.2 ']);
    expect(order.offered(piece(0, 1, 2), 4)).toEqual([]);
    expect(texts(order.offered(piece(0, 1, 3), 4))).toEqual(['1.3 ']);
  });

  it('keeps pieces that arrive before their call is seen to start, and shows them once it is', () => {
    const order = new LiveTextOrder();
    expect(order.offered(piece(2, 1, 1), 9)).toEqual([]);
    expect(order.offered(piece(2, 1, 2), 9)).toEqual([]);
    const shown = order.delivered(started(10, 2));
    expect(texts(shown)).toEqual(['1.1 ', '1.2 ']);
    expect(shown.map((event) => event.offset)).toEqual([10, 10]);
  });

  it('starts again with a retried attempt, and drops what the earlier attempt still sends', () => {
    const order = new LiveTextOrder();
    order.delivered(started(0, 0));
    order.offered(piece(0, 1, 1), 0);
    order.offered(piece(0, 1, 2), 0);
    const retried = order.offered(piece(0, 2, 1), 0);
    expect(retried).toEqual([expect.objectContaining({ attempt: 2, text: '2.1 ' })]);
    expect(order.offered(piece(0, 1, 3), 0)).toEqual([]);
    expect(texts(order.offered(piece(0, 2, 2), 0))).toEqual(['2.2 ']);
  });

  it('shows nothing of an attempt joined in the middle or missing a piece: the answer brings its whole text', () => {
    const joined = new LiveTextOrder();
    joined.delivered(started(0, 0));
    expect(joined.offered(piece(0, 1, 5), 0)).toEqual([]);
    expect(joined.offered(piece(0, 1, 6), 0)).toEqual([]);
    const gap = new LiveTextOrder();
    gap.delivered(started(0, 0));
    expect(texts(gap.offered(piece(0, 1, 1), 0))).toEqual(['1.1 ']);
    expect(gap.offered(piece(0, 1, 3), 0)).toEqual([]);
    expect(gap.offered(piece(0, 1, 2), 0)).toEqual([]);
    expect(gap.offered(piece(0, 1, 4), 0)).toEqual([]);
  });

  it('drops the pieces of a call that has answered', () => {
    const order = new LiveTextOrder();
    order.delivered(started(0, 0));
    order.offered(piece(0, 1, 1), 0);
    order.delivered(responded(1, 0));
    expect(order.offered(piece(0, 1, 2), 1)).toEqual([]);
    expect(order.offered(piece(0, 2, 1), 1)).toEqual([]);
  });
});
