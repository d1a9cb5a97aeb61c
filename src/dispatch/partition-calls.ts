import { DEFAULT_MAX_TOOL_CONCURRENCY } from './defaults';

/** A run of calls the workflow runs together (`concurrent`) or one call that runs alone (`serial`). */
export interface ToolCallBatch<CALL> {
  readonly kind: 'concurrent' | 'serial';
  readonly calls: readonly CALL[];
}

/** Options of {@link partitionCalls}. */
export interface PartitionCallsOptions {
  /** Most calls in one concurrent batch; a positive integer. Defaults to 10. */
  readonly maxConcurrency?: number;
  /**
   * Whether the rule verdict of the call at `laterIndex` depends on the outcome of the call at
   * `earlierIndex` (indices into `calls`). Such calls never share a batch. Throwing counts as `true`.
   */
  readonly dependsOn?: (earlierIndex: number, laterIndex: number) => boolean;
}

/**
 * Splits the calls of one model response into ordered batches. Consecutive concurrency-safe calls
 * share a `concurrent` batch of at most `maxConcurrency` calls; every other call is a `serial` batch
 * of its own; a batch is also cut before a call whose verdict `dependsOn` an earlier call of it.
 * Running the batches one after another, in order, keeps the "as if in order" guarantee.
 *
 * @throws RangeError when `maxConcurrency` is not a positive integer.
 */
export function partitionCalls<CALL extends { readonly concurrencySafe: boolean }>(
  calls: readonly CALL[],
  { maxConcurrency = DEFAULT_MAX_TOOL_CONCURRENCY, dependsOn }: PartitionCallsOptions = {},
): ToolCallBatch<CALL>[] {
  if (!Number.isSafeInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new RangeError(`maxConcurrency must be a positive integer, got ${String(maxConcurrency)}`);
  }
  const batches: ToolCallBatch<CALL>[] = [];
  let open: { calls: CALL[]; indices: number[] } | undefined;
  calls.forEach((call, index) => {
    // Only a literal `true` is a claim of safety; anything else (a missing or odd value) is unsafe.
    if (call.concurrencySafe !== true) {
      open = undefined;
      batches.push({ kind: 'serial', calls: [call] });
      return;
    }
    const fits =
      open !== undefined &&
      open.calls.length < maxConcurrency &&
      !open.indices.some((earlier) => verdictDepends(dependsOn, earlier, index));
    if (open !== undefined && fits) {
      open.calls.push(call);
      open.indices.push(index);
      return;
    }
    open = { calls: [call], indices: [index] };
    batches.push({ kind: 'concurrent', calls: open.calls });
  });
  return batches;
}

function verdictDepends(
  dependsOn: PartitionCallsOptions['dependsOn'],
  earlierIndex: number,
  laterIndex: number,
): boolean {
  if (dependsOn === undefined) return false;
  try {
    return dependsOn(earlierIndex, laterIndex) !== false;
  } catch {
    return true;
  }
}
