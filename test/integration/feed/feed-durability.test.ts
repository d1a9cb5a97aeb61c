import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { LocalLiveChannel } from '../../../src/live';
import { feedQuery } from '../../../src/session';
import type { FeedEvent } from '../../../src/session';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { fetchRunChain } from '../../helpers/run-chain';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';
import { withoutTime } from '../../helpers/feed-without-time';

/**
 * The feed across the faults a session survives: a worker killed with SIGKILL in the middle of a
 * tool call (a new one replays the session), and continue-as-new every three turns. One subscriber
 * follows from the start, disconnects when the worker dies and reconnects from where it stopped once
 * the session has continued as new twice; another starts after the session ended. Both see every
 * event exactly once, in order, and the same events: without a live channel (queries), and with
 * one (the workers publish each workflow task's events once it is durable).
 */
describe.each([
  { channel: 'without a live channel', live: false },
  { channel: 'with the local live channel', live: true },
])('the live feed across a worker crash and continue-as-new, $channel', ({ live }) => {
  const children = new Set<ChildProcess>();
  let connections: HarnessConnections;
  let workDirectory: string;
  let bundlePath: string;

  beforeAll(async () => {
    connections = await connectToHarness();
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-feed-'));
    bundlePath = path.join(workDirectory, 'workflows.js');
    writeFileSync(bundlePath, (await bundleSessionWorkflows()).code);
  });
  const channels: LocalLiveChannel[] = [];
  afterAll(async () => {
    killWorkerChildren(children);
    await Promise.all(channels.map((channel) => channel.close()));
    await connections?.close();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  it('sees every event exactly once and in order, whether it reconnects after the crash or starts late', async () => {
    const taskQueue = uniqueName('feed-crash');
    const liveDirectory = path.join(workDirectory, 'live');
    const env = {
      TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'),
      TOOLRAIL_TEST_NAMESPACE: connections.namespace,
      TOOLRAIL_TEST_TASK_QUEUE: taskQueue,
      TOOLRAIL_TEST_WORKFLOW_BUNDLE: bundlePath,
      TOOLRAIL_CONTENT_STORE: path.join(workDirectory, 'content'),
      // The workers publish on the local channel (createWorker's default is TOOLRAIL_LIVE).
      ...(live ? { TOOLRAIL_LIVE: `local:${liveDirectory}` } : {}),
    };
    const firstWorker = await startWorkerChild('test/fixtures/feed-worker.ts', env, children);
    const channel = live ? new LocalLiveChannel({ directory: liveDirectory }) : undefined;
    channels.push(...(channel ? [channel] : []));
    const toolrail = new ToolrailClient({
      client: connections.client,
      taskQueue,
      ...(channel ? { live: channel } : {}),
    });
    const session = await toolrail.startSession({
      sessionId: uniqueName('feed-crash-session'),
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { provider: 'scripted', model: 'steps' },
      firstMessage: 'Take every step.',
      limits: { continueAsNewAfterTurns: 3, closeWhenIdle: true },
    });

    // Follow from the start until the third step runs, then lose the worker (and the connection).
    const followed: FeedEvent[] = [];
    const disconnect = new AbortController();
    for await (const event of session.events({ signal: disconnect.signal })) {
      followed.push(event);
      if (event.type === 'tool_started' && event.turn === 2) {
        await firstWorker.kill();
        disconnect.abort();
      }
    }
    const lastSeen = followed.at(-1)?.offset ?? -1;
    expect(followed.some((event) => event.type === 'continued_as_new')).toBe(false);

    // A new worker replays the session and goes on; reconnect once it has continued as new twice.
    await startWorkerChild('test/fixtures/feed-worker.ts', env, children);
    await pollUntil(
      () => session.status(),
      (status) => status.counters.continuedAsNew >= 2,
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    for await (const event of session.events({ from: lastSeen + 1 })) followed.push(event);

    const late: FeedEvent[] = [];
    for await (const event of session.events()) late.push(event);

    expect(followed.map((event) => event.offset)).toEqual(followed.map((_, index) => index));
    // The same events at the same offsets. Their time `at` never goes back in either feed, but may be
    // a few milliseconds apart between them: a replay can set the workflow's clock differently where a
    // query reached the session while a local activity ran (docs/live-feed.md).
    expect(late.map(withoutTime)).toEqual(followed.map(withoutTime));
    for (const events of [late, followed]) {
      const times = events.map((event) => event.at);
      expect(times).toEqual(times.toSorted((a, b) => a - b));
    }
    expect(late.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });
    const steps = late.filter((event) => event.type === 'tool_ended').map((event) => event.turn);
    expect(steps).toEqual(Array.from({ length: 14 }, (_, turn) => turn));
    const runs = await fetchRunChain(connections.client, session.sessionId);
    expect(late.filter((event) => event.type === 'continued_as_new')).toHaveLength(runs.length - 1);
    expect(runs.length).toBeGreaterThanOrEqual(4);
    // The last run holds only the newest events: the late subscriber read the older ones from the closed runs.
    const lastRun = await session.workflow.query(feedQuery, { from: 0 });
    expect(lastRun.oldest).toBeGreaterThan(0);
    expect(lastRun.end).toBe(late.length);
  });
});
