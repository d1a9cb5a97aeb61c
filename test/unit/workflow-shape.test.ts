import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const workflowsDir = path.resolve(__dirname, '../../workflows');
const workflowFiles = readdirSync(workflowsDir).filter((name) => name.endsWith('.ts'));
const source = (name: string): string => readFileSync(path.join(workflowsDir, name), 'utf8');
const lines = (name: string): string[] => source(name).split('\n');

/** The workflow files `name` imports (`./x` → `x.ts`), types included. */
function localImports(name: string): string[] {
  return [...source(name).matchAll(/from '\.\/([\w-]+)'/g)].map(([, file]) => `${file}.ts`);
}

describe('the session workflow stays readable', () => {
  it('keeps every file under workflows/ within one sitting: at most 250 lines', () => {
    const long = workflowFiles
      .map((name) => ({ name, lines: lines(name).length - 1 }))
      .filter(({ lines }) => lines > 250);
    expect(long).toEqual([]);
  });

  it('assigns the session status in one place only: the fold in session-state.ts', () => {
    const assignments = workflowFiles.flatMap((name) =>
      lines(name)
        .filter((line) => /\.status\s*=[^=]/.test(line))
        .map((line) => `${name}: ${line.trim()}`),
    );
    expect(assignments.every((line) => line.startsWith('session-state.ts: s.status = '))).toBe(true);
    expect(assignments.length).toBeGreaterThan(0);
  });

  it('has one writer of session state: only applyEvent in session-state.ts makes the state writable', () => {
    const writers = workflowFiles.filter((name) => /as Mutable<|\bMutable<SessionState>/.test(source(name)));
    expect(writers).toEqual(['session-state.ts']);
    const fold = source('session-state.ts');
    const bodyOfApply = fold.slice(fold.indexOf('export function applyEvent'));
    expect(bodyOfApply).toContain('switch (event.type)');
    // Outside the fold, nothing assigns to the state or changes its maps.
    const writes = workflowFiles
      .filter((name) => name !== 'session-state.ts')
      .flatMap((name) =>
        lines(name)
          .filter((line) =>
            /\bstate\.\w+(\.\w+)*\s*(=[^=]|\+=|-=|\+\+)|\bstate\.\w+\.(set|delete|push|splice|shift|unshift)\(/.test(
              line,
            ),
          )
          .map((line) => `${name}: ${line.trim()}`),
      );
    expect(writes).toEqual([]);
  });

  it('reads one turn as a story: turn.ts, batch.ts and run-calls.ts, with the state they change in session-state.ts', () => {
    const steps = new Set(['turn.ts', 'batch.ts', 'run-calls.ts', 'session-state.ts']);
    // Besides one another, the turn uses only the session's glue (events, scopes, content store, the
    // model call's input, the rules' narrowing), how one call runs (toolrail's tool activity, or the
    // user's activity) and a side path for lost completions: no packing detour.
    const helpers = new Set([
      'session.ts',
      'store-messages.ts',
      'with-store.ts',
      'change-catalog.ts',
      'model-call-input.ts',
      'narrowed-catalog.ts',
      'refused-update.ts',
      'settle-failed-call.ts',
      'run-call.ts',
      'workflow-now.ts',
      'publish-live.ts',
    ]);
    for (const name of ['turn.ts', 'batch.ts', 'run-calls.ts']) {
      const beyond = localImports(name).filter((file) => !steps.has(file) && !helpers.has(file));
      expect(beyond, `${name} imports`).toEqual([]);
    }
    // Continue-as-new is decided in agent-session.ts alone.
    const continuing = workflowFiles.filter((name) => /\bcontinueAsNew\b/.test(source(name)));
    expect(continuing).toEqual(['agent-session.ts']);
  });

  it('imports each thing from the file that defines it: no file under workflows/ but the bundle entries re-exports another', () => {
    const bundleEntries = new Set(['index.ts', 'with-user-workflows.ts']);
    const hops = workflowFiles.filter(
      (name) => !bundleEntries.has(name) && /^export (\*|\{[^}]*\}|type \{[^}]*\}) from '\.\//m.test(source(name)),
    );
    expect(hops).toEqual([]);
  });
});
