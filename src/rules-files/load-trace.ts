import type { RuleDiagnostic, Trace } from '../rules/index';
import { traceSchemas } from '../rules/index';
import { readSourceFile } from './read-source-file';

/** A parsed trace, or the first problem with it. */
export type LoadTraceResult = { ok: true; trace: Trace } | { ok: false; error: RuleDiagnostic };

type Path = (string | number)[];

function pathOf(parts: Path): string {
  return parts.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${part}`)).join('');
}

function keysOf(issuePath: readonly PropertyKey[]): Path {
  return issuePath.filter((part): part is string | number => typeof part !== 'symbol');
}

/** The most precise problem: an event with one known key is checked against that kind's schema. */
function firstProblem(value: unknown, issuePath: Path, message: string): { path: Path; message: string } {
  if (issuePath[0] !== 'events' || issuePath.length !== 2 || typeof value !== 'object' || value === null) {
    return { path: issuePath, message };
  }
  const event = (value as { events?: unknown[] }).events?.[Number(issuePath[1])];
  const keys = typeof event === 'object' && event !== null ? Object.keys(event) : [];
  const { events } = traceSchemas();
  const kind = keys.find((key): key is keyof typeof events => Object.hasOwn(events, key));
  if (keys.length !== 1 || kind === undefined) {
    return {
      path: issuePath,
      message: 'an event must be exactly one of {"user": text}, {"calls": [...]}, {"text": text}',
    };
  }
  const issue = events[kind].safeParse(event).error?.issues[0];
  return issue === undefined
    ? { path: issuePath, message }
    : { path: [...issuePath, ...keysOf(issue.path)], message: issue.message };
}

/** Reads a trace file (JSON or YAML) for `toolrail simulate`, naming the line of the first problem. */
export async function loadTrace(file: string): Promise<LoadTraceResult> {
  const parsed = await readSourceFile(file);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const result = traceSchemas().trace.safeParse(parsed.source.value);
  if (result.success) return { ok: true, trace: result.data };
  const issue = result.error.issues[0];
  const problem = firstProblem(parsed.source.value, keysOf(issue?.path ?? []), issue?.message ?? 'invalid trace');
  let line: number | undefined;
  for (let n = problem.path.length; n >= 0 && line === undefined; n--)
    line = parsed.source.locator?.lineOf(problem.path.slice(0, n));
  return {
    ok: false,
    error: {
      severity: 'error',
      code: 'invalid-trace',
      file,
      path: pathOf(problem.path),
      ...(line !== undefined ? { line } : {}),
      problem: problem.message,
      fix: 'write the trace as {"tools": [...], "events": [...]} (see docs/rules.md)',
    },
  };
}
