import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalLiveChannel, sessionTopic } from '../../../src/live';
import type { LiveMessage, LiveState } from '../../../src/live';
import { pollUntil } from '../../helpers/poll-until';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';

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

/** A subscriber's record: the messages it heard and its states, in order. */
function recorder(): { messages: LiveMessage[]; states: LiveState[] } & Parameters<LocalLiveChannel['subscribe']>[1] {
  const messages: LiveMessage[] = [];
  const states: LiveState[] = [];
  return { messages, states, onMessage: (message) => messages.push(message), onState: (state) => states.push(state) };
}

describe('the local live channel between processes', () => {
  const children = new Set<ChildProcess>();
  let directory: string;
  const channels: LocalLiveChannel[] = [];
  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-live-'));
  });
  const publishers: { kill(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(publishers.splice(0).map((started) => started.kill()));
    await Promise.all(channels.splice(0).map((channel) => channel.close()));
  });
  afterAll(() => killWorkerChildren(children));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** A publisher in a process of its own, and how to make it publish. */
  async function publisher(): Promise<{ publish(message: LiveMessage): void; kill(): Promise<void>; pid: number }> {
    const child = await startWorkerChild(
      'test/fixtures/live-publisher.ts',
      { TOOLRAIL_TEST_LIVE_DIRECTORY: directory },
      children,
    );
    const process = [...children].find((candidate) => candidate.pid === child.pid);
    publishers.push(child);
    return {
      publish: (message) => process?.stdin?.write(`${JSON.stringify(message)}\n`),
      kill: () => child.kill(),
      pid: child.pid,
    };
  }

  function channel(): LocalLiveChannel {
    const opened = new LocalLiveChannel({ directory });
    channels.push(opened);
    return opened;
  }

  it("brings a publisher's messages to subscribers in another process, in order, once their subscription is up", async () => {
    const first = await publisher();
    const subscriber = channel();
    const heard = recorder();
    const subscription = subscriber.subscribe(topic, heard);
    await pollUntil(() => Promise.resolve(subscription.up), Boolean);
    const other = recorder();
    subscriber.subscribe(sessionTopic('default', 'chat-2'), other);
    for (let seq = 1; seq <= 200; seq++) first.publish(text(seq));
    const messages = await pollUntil(
      () => Promise.resolve(heard.messages),
      (all) => all.length === 200,
    );
    expect(messages).toEqual(Array.from({ length: 200 }, (_, index) => text(index + 1)));
    expect(heard.states).toEqual(['up']);
    // Another topic's subscriber hears none of it.
    expect(other.messages).toEqual([]);
  });

  it('takes a subscription down when a new publisher appears, and up again once that publisher hears it', async () => {
    const subscriber = channel();
    const heard = recorder();
    subscriber.subscribe(topic, heard);
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.includes('up'),
    );
    const later = await publisher();
    await pollUntil(
      () => Promise.resolve(heard.states),
      (states) => states.length === 3,
    );
    expect(heard.states).toEqual(['up', 'down', 'up']);
    later.publish(text(1));
    expect(
      await pollUntil(
        () => Promise.resolve(heard.messages),
        (all) => all.length === 1,
      ),
    ).toEqual([text(1)]);
  });

  it('removes the socket of a publisher that was killed, and its subscribers stay up for the others', async () => {
    const doomed = await publisher();
    const survivor = await publisher();
    const subscriber = channel();
    const heard = recorder();
    const subscription = subscriber.subscribe(topic, heard);
    await pollUntil(() => Promise.resolve(subscription.up), Boolean);
    await doomed.kill();
    const socketOf = (pid: number) => readdirSync(directory).filter((name) => name.startsWith(`${pid}-`));
    // Its socket file is still there until a subscriber finds no process behind it.
    const another = channel();
    another.subscribe(topic, recorder());
    await pollUntil(
      () => Promise.resolve(socketOf(doomed.pid)),
      (names) => names.length === 0,
    );
    expect(socketOf(survivor.pid)).toHaveLength(1);
    survivor.publish(text(7));
    expect(
      await pollUntil(
        () => Promise.resolve(heard.messages),
        (all) => all.length === 1,
      ),
    ).toEqual([text(7)]);
    expect(subscription.up).toBe(true);
  });

  it('brings a process its own messages, and removes its socket when it closes', async () => {
    const own = channel();
    await own.prepare();
    const heard = recorder();
    own.subscribe(topic, heard);
    own.publish(text(1));
    expect(
      await pollUntil(
        () => Promise.resolve(heard.messages),
        (all) => all.length === 1,
      ),
    ).toEqual([text(1)]);
    const sockets = readdirSync(directory).filter((name) => name.startsWith(`${process.pid}-`));
    expect(sockets).toHaveLength(1);
    await own.close();
    expect(existsSync(path.join(directory, sockets[0] ?? ''))).toBe(false);
  });
});
