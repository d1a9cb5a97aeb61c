import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { LocalLiveChannel } from '../../../src/live';
import type { FeedEvent } from '../../../src/session';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { liveStreamAnswer } from '../../fixtures/live-stream-answer';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';
import { withoutTime } from '../../helpers/feed-without-time';

/**
 * A worker killed with SIGKILL while its model streams an answer: the watcher, which follows the
 * session through the local channel all along, sees the text of the first attempt stop, and once
 * Temporal retries the model call on a new worker (after its heartbeat timeout) the text again, from
 * the start, as attempt 2; the durable events once and in order, as a reader without the channel reads them.
 */
describe('the live channel across a worker killed mid-stream', () => {
  const children = new Set<ChildProcess>();
  let connections: HarnessConnections;
  let workDirectory: string;
  let bundlePath: string;
  let channel: LocalLiveChannel | undefined;

  beforeAll(async () => {
    connections = await connectToHarness();
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-live-crash-'));
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
  });
  afterAll(async () => {
    killWorkerChildren(children);
    await channel?.close();
    await connections?.close();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  it("shows the retried model call's text as a new attempt, from its start", async () => {
    const taskQueue = uniqueName('live-crash');
    const liveDirectory = path.join(workDirectory, 'live');
    const env = {
      TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'),
      TOOLRAIL_TEST_NAMESPACE: connections.namespace,
      TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
      TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
      TOOLRAIL_CONTENT_STORE: path.join(workDirectory, 'content'),
      TOOLRAIL_LIVE: `local:${liveDirectory}`,
    };
    const firstWorker = await startWorkerChild('test/fixtures/live-stream-worker.ts', env, children);
    channel = new LocalLiveChannel({ directory: liveDirectory });
    const toolrail = new ToolrailClient({ client: connections.client, taskQueue, live: channel });
    const session = await toolrail.startSession({
      sessionId: uniqueName('live-crash-session'),
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { id: 'paced' },
      firstMessage: 'Where is my refund?',
      limits: { closeWhenIdle: true },
    });

    const watched: FeedEvent[] = [];
    const watching = (async () => {
      for await (const event of session.events()) watched.push(event);
    })();
    // A few words into the answer, the worker dies; a new one takes over.
    await pollUntil(
      () => Promise.resolve(watched),
      (events) => events.filter((event) => event.type === 'text_delta').length >= 5,
    );
    await firstWorker.kill();
    await startWorkerChild('test/fixtures/live-stream-worker.ts', env, children);
    await watching;

    const pieces = watched.filter((event) => event.type === 'text_delta');
    expect(pieces.every((piece) => piece.live === true && piece.turn === 0)).toBe(true);
    const byAttempt = (attempt: number): string =>
      pieces
        .filter((piece) => piece.attempt === attempt)
        .map((piece) => piece.text)
        .join('');
    // The first attempt's text stopped part of the way; the second one's came whole, after it.
    expect(byAttempt(1).length).toBeGreaterThan(0);
    expect(byAttempt(1).length).toBeLessThan(liveStreamAnswer.length);
    expect(liveStreamAnswer.startsWith(byAttempt(1))).toBe(true);
    expect(byAttempt(2)).toBe(liveStreamAnswer);
    expect(pieces.map((piece) => piece.attempt)).toEqual(pieces.map((piece) => piece.attempt).toSorted());

    const durable = watched.filter((event) => event.type !== 'text_delta');
    expect(durable.map((event) => event.offset)).toEqual(durable.map((_, index) => index));
    const reader = new ToolrailClient({ client: connections.client, taskQueue });
    const late: FeedEvent[] = [];
    for await (const event of reader.getSession(session.sessionId).events()) late.push(event);
    expect(durable.map(withoutTime)).toEqual(late.map(withoutTime));
    const answers = late.filter((event) => event.type === 'model_responded');
    expect(answers.map((event) => [event.turn, event.text?.slice(0, 25)])).toEqual([[0, 'Your refund was approved ']]);
    expect(late.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });
  });
});
