import { DEFAULT_MAX_TOOL_CONCURRENCY } from '../kernel/defaults';
import { InvalidMaxToolConcurrencyError } from './errors/invalid-max-tool-concurrency-error';

/**
 * The concurrent-batch cap from `TOOLRAIL_MAX_TOOL_CONCURRENCY`, or 10 when unset or empty. Read on
 * the Node side and passed to the workflow, which cannot read the environment.
 *
 * @throws InvalidMaxToolConcurrencyError when the variable is set but not a positive integer.
 */
export function readMaxToolConcurrency(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env['TOOLRAIL_MAX_TOOL_CONCURRENCY']?.trim();
  if (raw === undefined || raw === '') return DEFAULT_MAX_TOOL_CONCURRENCY;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidMaxToolConcurrencyError({ value: raw });
  return value;
}
