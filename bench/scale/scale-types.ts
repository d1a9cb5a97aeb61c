import type { HistoryFigures } from './scale-histories';

/**
 * The sides compared: toolrail, the bare workflow, the bare workflow with results by reference, and
 * toolrail as another checkout has it (`TOOLRAIL_BENCH_SCALE_BASELINE`: a change against main).
 */
export type ScaleVariant = 'toolrail' | 'bare' | 'bare by reference' | 'toolrail baseline';

/** One workload: `sessions` sessions of `turns` turns at once, `rounds` times, the variants taking turns. */
export interface ScalePhase {
  title: string;
  sessions: number;
  turns: number;
  rounds: number;
  variants: readonly ScaleVariant[];
}

/** What one round of one variant measured. */
export interface ScaleRound {
  variant: ScaleVariant;
  /** Tool-call turns in the round (sessions × turns). */
  turns: number;
  wallMs: number;
  workerCpuMs: number;
  /** The worker's CPU by what its threads do (see `threadCpuMs`), where `/proc` is readable. */
  workerThreadCpuMs: ReadonlyMap<string, number> | undefined;
  serverCpuMs: number | undefined;
  /** The benchmark's own process: the client that starts the sessions and waits for their results. */
  clientCpuMs: number;
  workerRssPeak: number;
  workerRssAfter: number;
  history: HistoryFigures;
}
