import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSessionActivities } from '../../../activities/create-session-activities';
import type { ExecuteToolInput, ExecutedCall } from '../../../activities/types';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { defineTool } from '../../../src/tools/define-tool';
import type { ToolExecutionContext } from '../../../src/tools/tool-context';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { readOnlyCall } from '../../helpers/read-only-call';

describe('the tool activity’s input and result', () => {
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

  const call = readOnlyCall({
    callId: 'call_0_0',
    requestedName: 'probe',
    toolName: 'probe',
    args: { page: 0 },
    input: { page: 0 },
  });
  const input = (overrides: Partial<ExecuteToolInput> = {}): ExecuteToolInput => ({
    sessionId: 'session-7',
    turn: 3,
    call,
    interactive: false,
    approved: false,
    rulesReadOutput: false,
    ...overrides,
  });
  const execute = (given: ExecuteToolInput): Promise<ExecutedCall> =>
    new MockActivityEnvironment().run((each: ExecuteToolInput) => activities.executeTool(each), given);

  it('runs the call of its input for the session it names, and returns the outcome and stored message whole', async () => {
    const executed = await execute(input());
    expect(seen[0]).toMatchObject({
      sessionId: 'session-7',
      interactive: false,
      idempotencyKey: 'session-7/3/call_0_0',
    });
    // The output stays in the content store (the rules do not read it): the message names it, key as the store gives it.
    expect(executed.outcome).toEqual({ type: 'tool-result', callId: 'call_0_0', toolName: 'probe', output: null });
    expect(executed.message).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      bytes: expect.any(Number) as number,
      preview: expect.stringContaining('page 0') as string,
      role: 'tool',
    });
  });

  it('returns the output when the rules read it, and tells the tool the session is interactive', async () => {
    const executed = await execute(input({ interactive: true, rulesReadOutput: true }));
    expect(seen[0]).toMatchObject({ interactive: true });
    expect(executed.outcome).toEqual({ type: 'tool-result', callId: 'call_0_0', toolName: 'probe', output: 'page 0' });
  });
});
