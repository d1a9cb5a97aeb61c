/**
 * The floor of the scale benchmark: a bare Temporal workflow of a session's shape, with nothing
 * around it (no rules, no conversation, no queries, no search attributes). Per turn, a "model"
 * activity returns one call and a tool activity runs it; the last "model" call returns none.
 * Bundled separately from toolrail's workflows.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { BareActivities } from './bare-activities';

const { model, tool, toolByReference } = proxyActivities<BareActivities>({ startToCloseTimeout: '1 minute' });

/** How a bare session runs: `turns` calls, each result returned whole or (`byReference`) as a stored reference. */
export interface BareSessionInput {
  turns: number;
  byReference: boolean;
}

/** Runs the turns one after another; returns how many tool calls ran. */
export async function bareSession({ turns, byReference }: BareSessionInput): Promise<number> {
  let calls = 0;
  for (let turn = 0; ; turn++) {
    const call = await model({ turn, turns });
    if (call === null) return calls;
    await (byReference ? toolByReference(call) : tool(call));
    calls += 1;
  }
}
