import { KeyedEvents } from './keyed-events';

/** One execution of a probe tool (a retried call has several). */
export interface ProbeRun {
  tool: string;
  callId: string;
  /** Worker-process clock, epoch ms. */
  startedAt: number;
  endedAt?: number;
  /** Whether the tool's abort signal fired while it ran. */
  sawAbort: boolean;
  /** How the execution ended, once it did. */
  end?: 'returned' | 'failed' | 'aborted';
}

/**
 * What the probe tools of one test did, seen from inside the worker: which calls started and ended,
 * when, and whether their abort signal reached them. Also holds calls until the test releases them,
 * so a test can act while a tool is known to be running, without sleeping.
 */
export class ToolProbe {
  readonly runs: ProbeRun[] = [];
  readonly #started = new KeyedEvents<ProbeRun>();
  readonly #ended = new KeyedEvents<ProbeRun>();
  readonly #released = new KeyedEvents<true>();

  /** Resolves when call `callId` started executing. */
  started(callId: string): Promise<ProbeRun> {
    return this.#started.when(callId);
  }

  /** Resolves when call `callId` stopped executing (returned, failed or aborted). */
  ended(callId: string): Promise<ProbeRun> {
    return this.#ended.when(callId);
  }

  /** Lets a call that runs with `hold: true` finish (before or after it started). */
  release(callId: string): void {
    this.#released.emit(callId, true);
  }

  /** Every execution of `callId`, in start order. */
  runsOf(callId: string): ProbeRun[] {
    return this.runs.filter((run) => run.callId === callId);
  }

  /** Names of the tools that executed, in start order. */
  toolsRun(): string[] {
    return this.runs.map((run) => run.tool);
  }

  /** @internal Called by probe tools. */
  recordStart(tool: string, callId: string): ProbeRun {
    const run: ProbeRun = { tool, callId, startedAt: Date.now(), sawAbort: false };
    this.runs.push(run);
    this.#started.emit(callId, run);
    return run;
  }

  /** @internal Called by probe tools. */
  recordEnd(run: ProbeRun, end: NonNullable<ProbeRun['end']>): void {
    run.endedAt = Date.now();
    run.end = end;
    this.#ended.emit(run.callId, run);
  }

  /** @internal Resolves when the test released `callId`. */
  whenReleased(callId: string): Promise<true> {
    return this.#released.when(callId);
  }
}
