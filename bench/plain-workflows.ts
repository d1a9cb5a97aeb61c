/**
 * The baseline of the dispatch benchmark: plain Temporal workflows that run the same activities as
 * a toolrail session, with nothing around them (no rules, no model call, no queries, no search
 * attributes). Bundled separately from toolrail's workflows.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { PlainActivities } from './dispatch/plain-activities';

const { noop, wait, think } = proxyActivities<PlainActivities>({ startToCloseTimeout: '1 minute' });

/** How a plain run is shaped: `turns` turns of `calls` parallel calls, each waiting `delayMs` (0: a no-op). */
export interface PlainRunInput {
  turns: number;
  calls: number;
  delayMs: number;
  /** Also call a no-op "model" activity before each turn and once at the end, as a session does. */
  withModelCalls: boolean;
}

/** Runs the turns: each one schedules its calls at once and waits for all of them (`Promise.all`). */
export async function plainToolTurns({ turns, calls, delayMs, withModelCalls }: PlainRunInput): Promise<number> {
  let done = 0;
  for (let turn = 0; turn < turns; turn++) {
    if (withModelCalls) await think(turn);
    const results = await Promise.all(
      Array.from({ length: calls }, (_, index) => (delayMs > 0 ? wait(delayMs) : noop(index))),
    );
    done += results.length;
  }
  if (withModelCalls) await think(turns);
  return done;
}
