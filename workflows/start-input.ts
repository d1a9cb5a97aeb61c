import { ApplicationFailure, patched, workflowInfo } from '@temporalio/workflow';
import { buildSessionStartInputSchema, checkSessionInput, refusedInputMessage } from '../src/session';
import type { SessionInput } from '../src/session';

/** Sessions whose first run began before the start input was checked replay without the check. */
const startInputCheckPatch = 'toolrail-start-input-checked';

/**
 * The input this workflow run starts from. The first run of a session checks its start input
 * (`checkSessionInput`, the client's check) before anything runs: a bad one ends the session at
 * once with a non-retryable `InvalidSessionInput` failure whose message lists every problem (and
 * whose details hold them as `{ problems: [{ path, problem }] }`), never a workflow task that fails
 * again and again. A run that continue-as-new started takes what the previous run carried over.
 */
export function startInput(input: SessionInput | undefined): SessionInput {
  if (workflowInfo().continuedFromExecutionRunId !== undefined || !patched(startInputCheckPatch))
    return input as SessionInput;
  // A schema built for this one check, not kept: a cached session holds no copy of it.
  const checked = checkSessionInput(input, buildSessionStartInputSchema());
  if (checked.ok) return checked.input;
  const { problems } = checked;
  throw ApplicationFailure.create({
    type: 'InvalidSessionInput',
    nonRetryable: true,
    message: refusedInputMessage(problems),
    details: [{ problems: problems.slice(0, 200) }],
  });
}
