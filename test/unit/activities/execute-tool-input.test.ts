import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSessionActivities } from '../../../activities/create-session-activities';
import type { ExecuteToolInput, ExecutedCall } from '../../../activities/types';
import { packPreparedCall, unpackPreparedCall } from '../../../src/dispatch/packed-prepared-call';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { defineTool } from '../../../src/tools/define-tool';
import type { ToolExecutionContext } from '../../../src/tools/tool-context';
import { ToolRegistry } from '../../../src/tools/tool-registry';

describe('the tool activity’s packed input and result', () => {
  let directory: string;
  let seen: ToolExecutionContext[];
  let activities: ReturnType<typeof createSessionActivities>;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-execute-input-'));
    seen = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records its context.',
      inputSchema: z.object({ page: z.number() }),
      concurrency: 'READ_ONLY',
      execute: ({ page }, context) => {
        seen.push(context);
        return `page ${page}`;
      },
    });
    activities = createSessionActivities({
      registry: new ToolRegistry([probe]),
      store: new DirectoryContentStore(directory),
    });
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const call = unpackPreparedCall({ type: 'prepared-call', callId: 'call_0_0', toolName: 'probe', input: { page: 0 } });
  /** Runs the tool activity as the workflow `workflowId` scheduled it. */
  const executeIn = (workflowId: string, input: ExecuteToolInput): Promise<ExecutedCall> =>
    new MockActivityEnvironment({ workflowExecution: { workflowId, runId: 'run-1' } }).run(
      (given: ExecuteToolInput) => activities.executeTool(given),
      input,
    );

  it('runs a call whose input leaves out the session, the call’s type and the false flags for the workflow that scheduled it, not interactive', async () => {
    const { type: _type, ...withoutType } = packPreparedCall(call);
    const input: ExecuteToolInput = { turn: 0, prepared: withoutType };
    const executed = await executeIn('session-7', input);
    expect(seen[0]).toMatchObject({
      sessionId: 'session-7',
      interactive: false,
      idempotencyKey: 'session-7/0/call_0_0',
    });
    // The result leaves out what the workflow knows: a result's outcome (its call's id and tool, the
    // null output), the message's role; the message's key is in base64url.
    expect(executed).not.toHaveProperty('outcome');
    expect(executed.message).toMatchObject({
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as string,
      bytes: expect.any(Number) as number,
      preview: expect.stringContaining('page 0') as string,
    });
    expect(executed.message).not.toHaveProperty('role');
  });

  it('reads an input in its full form (as earlier workflows sent it) as before', async () => {
    const full: ExecuteToolInput = {
      sessionId: 'named-session',
      turn: 3,
      interactive: true,
      prepared: call,
      approved: false,
      rulesReadOutput: true,
    };
    const executed = await executeIn('session-7', full);
    expect(seen[0]).toMatchObject({
      sessionId: 'named-session',
      interactive: true,
      idempotencyKey: 'named-session/3/call_0_0',
    });
    expect(executed.outcome).toEqual({ type: 'tool-result', output: 'page 0' });
  });
});
