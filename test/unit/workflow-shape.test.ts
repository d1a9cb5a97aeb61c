import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const workflowsDir = path.resolve(__dirname, '../../workflows');
const workflowFiles = readdirSync(workflowsDir).filter((name) => name.endsWith('.ts'));
const source = (name: string): string => readFileSync(path.join(workflowsDir, name), 'utf8');

describe('the session workflow stays readable', () => {
  it('keeps every file under workflows/ within one sitting: at most 250 lines', () => {
    const long = workflowFiles
      .map((name) => ({ name, lines: source(name).split('\n').length - 1 }))
      .filter(({ lines }) => lines > 250);
    expect(long).toEqual([]);
  });

  it('assigns the session status in one place only: setStatus in session-state.ts', () => {
    const assignments = workflowFiles.flatMap((name) =>
      source(name)
        .split('\n')
        .filter((line) => /\.status\s*=[^=]/.test(line))
        .map((line) => `${name}: ${line.trim()}`),
    );
    expect(assignments).toEqual(['session-state.ts: (state as { status: SessionStatus }).status = status;']);
  });
});
