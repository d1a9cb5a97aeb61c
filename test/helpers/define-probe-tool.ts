import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ConcurrencyClass, InterruptBehavior } from '../../src/dispatch/prepared-call';
import { defineTool, ToolExecutionError } from '../../src/tools';
import type { AnyTool } from '../../src/tools';
import type { ToolProbe } from './tool-probe';

/** Options of {@link defineProbeTool}. */
export interface ProbeToolOptions {
  name: string;
  probe: ToolProbe;
  /** Defaults to `READ_ONLY`. */
  concurrency?: ConcurrencyClass;
  /** Defaults to `block`. */
  interruptBehavior?: InterruptBehavior;
  /** Whether calls wait for a human approval. Defaults to false. */
  requiresPermission?: boolean;
}

const probeInputSchema = z.object({
  ms: z.number().int().min(0).optional().describe('How long the call works, in milliseconds'),
  hold: z.boolean().optional().describe('Keep working until the test releases this call'),
  waitFor: z.array(z.string()).optional().describe('Call ids that must have started before this call goes on'),
  fail: z.string().optional().describe('Fail with this message once the work is done'),
  answer: z.string().optional().describe('What the call returns'),
});

/** Heartbeat and abort-check period of a working probe tool, in ms. */
const tickMs = 100;

/**
 * A test tool whose behaviour the scripted model chooses through its arguments: work for `ms`
 * (heartbeating, and stopping as soon as its abort signal fires), or until the test releases it;
 * wait until other calls started; then fail with `fail`, or return `answer` (default
 * `{ tool, callId }`). Every execution is recorded in `probe`.
 */
export function defineProbeTool({
  name,
  probe,
  concurrency = 'READ_ONLY',
  interruptBehavior = 'block',
  requiresPermission = false,
}: ProbeToolOptions): AnyTool {
  return defineTool({
    name,
    description: `Test tool ${name}: works, waits, fails or answers as its arguments say.`,
    inputSchema: probeInputSchema,
    concurrency,
    interruptBehavior,
    requiresPermission,
    isDestructive: () => false,
    execute: async ({ ms, hold, waitFor, fail, answer }, context) => {
      const { callId, signal } = context;
      const heartbeat = (): void => context.heartbeat();
      const run = probe.recordStart(name, callId);
      try {
        await Promise.all((waitFor ?? []).map((id) => untilDone(probe.started(id), signal, heartbeat)));
        if (ms !== undefined) await untilDone(sleep(ms), signal, heartbeat);
        if (hold === true) await untilDone(probe.whenReleased(callId), signal, heartbeat);
      } catch (error) {
        run.sawAbort = signal.aborted;
        probe.recordEnd(run, signal.aborted ? 'aborted' : 'failed');
        throw error;
      }
      if (fail !== undefined) {
        probe.recordEnd(run, 'failed');
        throw new ToolExecutionError({ message: fail });
      }
      probe.recordEnd(run, 'returned');
      return answer ?? { tool: name, callId };
    },
  });
}

/** Waits for `work` while heartbeating every tick; rejects as soon as `signal` aborts. */
async function untilDone<T>(work: Promise<T>, signal: AbortSignal, heartbeat: (this: void) => void): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) {
    signal.throwIfAborted();
    heartbeat();
    await Promise.race([result, sleep(tickMs, undefined, { signal })]);
  }
  return result;
}
