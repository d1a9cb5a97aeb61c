import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from './support/fixtures';
import { lines, toolrail } from './support/run-toolrail';
import { scratchDirectory } from '../../helpers/scratch-directory';

describe('toolrail simulate (process)', () => {
  it('prints the documented JSON lines and exits 0', async () => {
    const result = await toolrail(
      'simulate',
      '--rules',
      fixture('spec-example.toolrail.yaml'),
      '--trace',
      fixture('traces/spec-example.trace.json'),
    );
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      '{"event":0,"type":"user","run":1}',
      '{"event":1,"type":"calls","visible":["check_eligibility","lookup_customer"],"calls":[{"tool":"check_eligibility","verdict":"allowed","reasons":[]}]}',
      '{"event":2,"type":"text","visible":["check_eligibility","issue_refund","lookup_customer"],"endsRun":true,"reasons":[]}',
    ]);
  });

  it('prints what shadow rules would have refused and hidden in their own fields, enforcing none of it', async () => {
    const result = await toolrail(
      'simulate',
      '--rules',
      fixture('shadow.toolrail.yaml'),
      '--trace',
      fixture('traces/shadow.trace.json'),
    );
    expect(result.code).toBe(0);
    const [, checked, refunds, answer] = lines(result.stdout).map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(checked).toEqual({
      event: 1,
      type: 'calls',
      visible: ['check_eligibility'],
      calls: [{ tool: 'check_eligibility', verdict: 'allowed', reasons: [] }],
    });
    expect(refunds).toMatchObject({
      calls: [
        { tool: 'issue_refund', verdict: 'allowed', reasons: [] },
        {
          tool: 'issue_refund',
          verdict: 'allowed',
          reasons: [],
          shadowRefused: [{ code: 'max_count_reached', rule: { id: 'one-refund-per-run', line: 7 } }],
        },
      ],
    });
    expect(answer).toEqual({
      event: 3,
      type: 'text',
      visible: ['check_eligibility', 'issue_refund'],
      shadowHidden: ['issue_refund'],
      endsRun: true,
      reasons: [],
    });
  });

  it('combines several --rules of different formats', async () => {
    const result = await toolrail(
      'simulate',
      '--rules',
      fixture('refund-contracts'),
      '--rules',
      fixture('spec-example.toolrail.yaml'),
      '--trace',
      fixture('traces/refund.trace.json'),
    );
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(6);
  });

  it('invalid rules exit 2 with one line naming file, line and the cycle', async () => {
    const dir = scratchDirectory('toolrail-trace-');
    const trace = join(dir, 'deploy.json');
    await writeFile(trace, JSON.stringify({ tools: ['deploy', 'approve'], events: [] }));
    const result = await toolrail('simulate', '--rules', fixture('cycle.toolrail.yaml'), '--trace', trace);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [line, ...rest] = lines(result.stderr);
    expect(rest).toEqual([]);
    expect(line).toMatch(/cycle\.toolrail\.yaml:\d+ \(rules\[\d\]\): .*(deploy|approve) requires .* — /);
    expect(line).not.toContain('    at ');
  });

  it('an invalid trace exits 2 with one line naming the event and its line', async () => {
    const dir = scratchDirectory('toolrail-trace-');
    const trace = join(dir, 'bad.yaml');
    await writeFile(trace, 'tools: [a]\nevents:\n  - user: hi\n  - calls:\n      - tool: 5\n');
    const result = await toolrail('simulate', '--rules', fixture('spec-example.toolrail.yaml'), '--trace', trace);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/bad\.yaml:5 \(events\[1\]\.calls\[0\]\.tool\): .* — /),
    ]);
  });

  it('a rules file whose format cannot be recognised exits 2 and suggests --format', async () => {
    const dir = scratchDirectory('toolrail-rules-');
    const rules = join(dir, 'rules.json');
    await writeFile(rules, '{"hello": 1}');
    const result = await toolrail('simulate', '--rules', rules, '--trace', fixture('traces/spec-example.trace.json'));
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([expect.stringContaining('--format')]);
  });

  it('an unknown option exits 2 with one line', async () => {
    const result = await toolrail('simulate', '--bogus');
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
  });
});

describe('toolrail lint and graph (process)', () => {
  it('lint passes valid rules and reports warnings without failing', async () => {
    const dir = scratchDirectory('toolrail-lint-');
    const rules = join(dir, 'rules.yaml');
    await writeFile(rules, 'toolrail: 1\nrules:\n  - kind: terminal\n    tool: a\n  - kind: terminal\n    tool: a\n');
    const result = await toolrail('lint', '--rules', rules, '--tools', 'a,b');
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/rules\.yaml:5 \(rules\[1\]\): warning: .*repeats/)]);
    expect(result.stdout).toContain('ok: 2 rules, 1 warning');
  });

  it('lint exits 2 and lists every error, e.g. tools missing from --tools', async () => {
    const result = await toolrail(
      'lint',
      '--rules',
      fixture('letta-diagram.letta.json'),
      '--tools',
      'must_run_first,parent_tool',
    );
    expect(result.code).toBe(2);
    const errors = lines(result.stderr);
    expect(errors).toHaveLength(4);
    expect(errors.every((line) => line.includes('not in the catalog'))).toBe(true);
  });

  it('graph draws DOT with labelled edges', async () => {
    const result = await toolrail('graph', '--rules', fixture('ticket-flow.graph.yaml'), '--format', 'dot');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"create_ticket" -> "assign_ticket" [label="requires"];');
    expect(result.stdout.startsWith('digraph rules {')).toBe(true);
  });
});
