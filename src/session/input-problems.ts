import type { z } from 'zod';
import { suggestName } from '../text';
import { ToolrailError } from '../errors';

/**
 * One thing wrong with an input: where (`limits.approvalTimeoutMs`, `rules.rules[2].kind`; `` for
 * the whole input) and what.
 */
export interface InputProblem {
  path: string;
  problem: string;
}

/** The most problems one message lists; the rest are counted. */
const maxListedProblems = 50;

/** `limits.maxTurnsPerRun`, `rules.rules[2].after[0]`: a path as a reader writes it. */
export function formatInputPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** One line per problem: `- path: problem`, at most 50, then how many more. */
export function formatInputProblems(problems: readonly InputProblem[]): string {
  const lines = problems.slice(0, maxListedProblems).map(({ path, problem }) => `- ${path || '(input)'}: ${problem}`);
  if (problems.length > maxListedProblems) lines.push(`- … and ${problems.length - maxListedProblems} more`);
  return lines.join('\n');
}

/**
 * Options for `safeParse` that word zod's issues for people: an unknown key is named with the
 * nearest known one (`firstMesage` → did you mean `firstMessage`?, `first_message` → `firstMessage`).
 */
export const readableIssues = {
  error: (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def
      ?.shape;
    const known = Object.keys(shape ?? {});
    const keys = (issue as { keys?: string[] }).keys ?? [];
    return keys
      .map((key) => {
        const nearest = suggestName(key, known);
        return `unknown key "${key}"${nearest === undefined ? '' : ` (did you mean "${nearest}"?)`}`;
      })
      .join('; ');
  },
};

/** The problems of a failed parse, each at its path (under `prefix`), with the value that was given where it helps. */
export function problemsOfIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): InputProblem[] {
  return issues.map((issue) => {
    const given = valueAt(input, issue.path);
    const path = formatInputPath([...prefix, ...issue.path]);
    if (issue.code === 'invalid_type') {
      const expected = `expected ${issue.expected}`;
      return {
        path,
        problem: given === undefined ? `missing (${expected})` : `${expected}, got ${describeValue(given)}`,
      };
    }
    const valued = ['invalid_value', 'too_small', 'too_big', 'invalid_format', 'not_multiple_of'].includes(issue.code);
    const shown = valued && given !== undefined ? `, got ${describeValue(given)}` : '';
    return { path, problem: `${issue.message}${shown}` };
  });
}

/** A short rendering of a value in a message: `"1h"`, `42`, `null`, `an object`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** `the session input was refused (N problems):` and one line per problem. */
export function refusedInputMessage(problems: readonly InputProblem[]): string {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return `the session input was refused (${count}):\n${formatInputProblems(problems)}`;
}

/** A session input the client refused before starting anything: every problem, one per line. */
export class SessionInputError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.INVALID_SESSION_INPUT');
  readonly problems: readonly InputProblem[];

  constructor(problems: readonly InputProblem[]) {
    super({
      code: 'INVALID_SESSION_INPUT',
      message: refusedInputMessage(problems),
    });
    this.problems = problems;
  }
}
