import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });

/** A frame of toolrail's workflow code, as the SDK's `__stack_trace` query writes it (source-mapped). */
const workflowFrame = /workflows\/[\w-]+\.ts:\d+/;

describe("the session workflow's stack traces (the Web UI's Stack Trace tab)", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  /** Starts an idle session on a worker with or without stack traces and answers its `__stack_trace` query. */
  async function stackTraceOfIdleSession(workflowStackTraces: boolean | undefined): Promise<string> {
    return withSessionWorker(
      { connections, tools: [], ...(workflowStackTraces === undefined ? {} : { workflowStackTraces }) },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('stack'),
          rules: noRules,
          model: { provider: 'scripted', model: 'unused' },
        });
        await expect.poll(async () => (await session.status()).status).toBe('idle');
        const stack = await session.workflow.query<string>('__stack_trace');
        await session.workflow.terminate('test done');
        return stack;
      },
    );
  }

  it('answers the stack trace query without frames on a worker by default (no stack capture per promise)', async () => {
    const stack = await stackTraceOfIdleSession(undefined);
    expect(typeof stack).toBe('string');
    expect(stack).not.toMatch(workflowFrame);
  });

  it("shows where the session waits, in toolrail's workflow sources, on a worker with workflowStackTraces", async () => {
    const stack = await stackTraceOfIdleSession(true);
    expect(stack).toMatch(workflowFrame);
  });
});
