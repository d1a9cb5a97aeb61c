import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import { toolrailVersion } from '../src/session';
import {
  buildSessionStartInputSchema,
  checkSessionInput,
  refusedInputMessage,
  undecodableProblem,
} from '../src/session';
import type { SessionInput } from '../src/session';

/**
 * The input this workflow run starts from. The first run of a session checks its start input
 * (`checkSessionInput`, the client's check) before anything runs: a bad one ends the session at
 * once with a non-retryable `InvalidSessionInput` failure whose message lists every problem (and
 * whose details hold them as `{ problems: [{ path, problem }] }`), never a workflow task that fails
 * again and again; unless the input says (`checkedBy`) that a client of this toolrail version checked
 * it with this same check and sent what it returned. A run that continue-as-new started takes what
 * the previous run carried over (see {@link carriedInput}).
 */
export function startInput(input: SessionInput | undefined): SessionInput {
  if (workflowInfo().continuedFromExecutionRunId !== undefined) return carriedInput(input);
  // Checked once, at the edge: the check builds about 200 zod schemas, which would cost each session
  // start some milliseconds of the worker's CPU and its cached session their memory.
  if (checkedByThisVersion(input)) return input as SessionInput;
  // A schema built for this one check, not kept.
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

/**
 * The input the previous run carried over; one that cannot be read (an External Storage claim whose
 * content is gone) ends the session with a non-retryable `InvalidSessionInput` failure saying why.
 */
function carriedInput(input: SessionInput | undefined): SessionInput {
  const problem = undecodableProblem(input, 'the input the previous run carried over');
  if (problem !== undefined)
    throw ApplicationFailure.create({ type: 'InvalidSessionInput', nonRetryable: true, message: problem });
  return input as SessionInput;
}

/**
 * Whether a client of this toolrail version checked the input (the session's first run trusts only
 * its own version's check).
 */
function checkedByThisVersion(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as SessionInput).checkedBy === toolrailVersion;
}
