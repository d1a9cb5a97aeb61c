import { describe, expect, it } from 'vitest';
import { detectFormat, importLetta, importRules, importToolrail } from '../../../src/rules/index';
import { loadRuleDocuments, parseSourceText } from '../../../src/rules-files/index';
import { fixture } from './support/fixtures';

describe('detectFormat', () => {
  it('recognises each native format by content', () => {
    expect(detectFormat([{ type: 'run_first', tool_name: 'a' }])).toBe('letta');
    expect(detectFormat({ tools: ['a'], tool_rules: [] })).toBe('letta');
    expect(detectFormat({ toolrail: 1, rules: [] })).toBe('toolrail');
    expect(detectFormat({ rules: [{ kind: 'init', tool: 'a' }] })).toBe('toolrail');
    expect(detectFormat({ steps: [] })).toBe('agentdock');
    expect(detectFormat({ name: 'agent', orchestration: { steps: [] } })).toBe('agentdock');
    expect(detectFormat({ tool: 'issue_refund', preconditions: [] })).toBe('contracts');
    expect(detectFormat({ requires: { a: ['b'] } })).toBe('graph');
    expect(detectFormat({ a: { needs: ['b'], forbid_after: [] } })).toBe('graph');
  });

  it('recognises nothing in an unrelated document', () => {
    expect(detectFormat({ hello: 1 })).toBeNull();
    expect(detectFormat('text')).toBeNull();
    expect(detectFormat([{ name: 'x' }])).toBeNull();
  });
});

describe('importers keep the source of every rule', () => {
  it('Letta rules keep their index in tool_rules and their line', () => {
    const parsed = parseSourceText(
      'agent.json',
      '{\n  "tool_rules": [\n    {"type": "run_first", "tool_name": "a"},\n    {"type": "exit_loop", "tool_name": "b"}\n  ]\n}',
    );
    if (!parsed.ok) throw new Error('parse failed');
    const result = importRules(parsed.source);
    expect(result.ok && result.document.rules.map((rule) => rule.source)).toEqual([
      { file: 'agent.json', index: 0, path: 'tool_rules[0]', line: 3 },
      { file: 'agent.json', index: 1, path: 'tool_rules[1]', line: 4 },
    ]);
  });

  it('a conditional mapping keeps the file order, numeric keys included', () => {
    const parsed = parseSourceText(
      'letta.json',
      '[{"type": "conditional", "tool_name": "c", "child_output_mapping": {"b": "x", "5": "y", "true": "z"}}]',
    );
    if (!parsed.ok) throw new Error('parse failed');
    const result = importLetta(parsed.source);
    const rule = result.ok ? result.document.rules[0] : undefined;
    expect(rule && rule.kind === 'conditional' && rule.mapping.map((entry) => entry.when)).toEqual(['b', '5', 'true']);
  });

  it('an unknown Letta rule type is refused, naming the field and its line', () => {
    const parsed = parseSourceText('letta.json', '[\n  {"type": "run_last", "tool_name": "a"}\n]');
    if (!parsed.ok) throw new Error('parse failed');
    const result = importLetta(parsed.source);
    expect(!result.ok && result.errors[0]).toMatchObject({ code: 'unknown-rule-type', path: '[0].type', line: 2 });
  });

  it('an alias without its anchor is reported as a YAML mistake, not as an alias bomb', () => {
    const parsed = parseSourceText('rules.yaml', 'rules:\n  - kind: requires\n    tool: *missing\n');
    expect(!parsed.ok && parsed.error).toMatchObject({ code: 'syntax', fix: 'fix the YAML syntax' });
    expect(!parsed.ok && parsed.error.problem).toMatch(/^invalid YAML: Unresolved alias/);
  });

  it('an alias bomb is refused with the alias limit and how to write it instead', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [from, to] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ])
      levels.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(', ')}]`);
    const parsed = parseSourceText('bomb.yaml', `${levels.join('\n')}\n`);
    expect(!parsed.ok && parsed.error.problem).toMatch(/^invalid YAML: too many alias expansions/);
    expect(!parsed.ok && parsed.error.fix).toMatch(/write the values out/);
  });

  it("a wrong field in a unified rule is reported at the field's line", () => {
    const parsed = parseSourceText(
      'r.yaml',
      'toolrail: 1\nrules:\n  - kind: max_count\n    tool: a\n    limit: many\n',
    );
    if (!parsed.ok) throw new Error('parse failed');
    const result = importToolrail(parsed.source);
    expect(!result.ok && result.errors[0]).toMatchObject({ path: 'rules[0].limit', line: 5 });
  });

  it('an unknown top-level field or rule kind in the unified format is refused', () => {
    expect(importToolrail({ file: 'r.yaml', value: { toolrail: 1, rulez: [] } }).ok).toBe(false);
    expect(importToolrail({ file: 'r.yaml', value: { rules: [{ kind: 'sometimes', tool: 'a' }] } }).ok).toBe(false);
  });

  it('the unified format reads settings and a default policy', () => {
    const result = importToolrail({
      file: 'r.yaml',
      value: { toolrail: 1, default: 'block', onEmpty: 'allow-all', maxTurnsPerRun: 7, rules: [] },
    });
    expect(result.ok && result.document.settings).toEqual({ onEmpty: 'allow-all', maxTurnsPerRun: 7 });
    expect(result.ok && result.document.rules.map((rule) => rule.kind)).toEqual(['default']);
  });

  it('a conditional mapping may be written as a list of when/child with typed keys', () => {
    const result = importToolrail({
      file: 'r.yaml',
      value: {
        rules: [
          {
            kind: 'conditional',
            tool: 'c',
            mapping: [
              { when: true, child: 'a' },
              { when: 5, child: 'b' },
            ],
          },
        ],
      },
    });
    const rule = result.ok ? result.document.rules[0] : undefined;
    expect(rule && rule.kind === 'conditional' && rule.mapping).toEqual([
      { when: 'true', child: 'a' },
      { when: '5', child: 'b' },
    ]);
  });

  it('an explicit --format overrides detection', () => {
    expect(importRules({ file: 'x.json', value: [{ type: 'run_first', tool_name: 'a' }] }, 'agentdock').ok).toBe(false);
  });
});

describe('loadRuleDocuments (files)', () => {
  it('reads every fixture format and a contract directory', async () => {
    const result = await loadRuleDocuments({
      paths: [
        'every-kind.toolrail.yaml',
        'letta-diagram.letta.json',
        'research.agentdock.json',
        'ticket-flow.graph.yaml',
        'refund-contracts',
      ].map(fixture),
    });
    expect(result.ok && result.documents.map((d) => d.format)).toEqual([
      'toolrail',
      'letta',
      'agentdock',
      'graph',
      'contracts',
    ]);
  });

  it('the unified example file has one rule of every kind', async () => {
    const result = await loadRuleDocuments({ paths: [fixture('every-kind.toolrail.yaml')] });
    const kinds = result.ok ? new Set(result.documents[0]?.rules.map((rule) => rule.kind)) : new Set();
    expect(kinds.size).toBe(15);
  });

  it('a missing file is reported with the path', async () => {
    const result = await loadRuleDocuments({ paths: ['/nonexistent/rules.yaml'] });
    expect(!result.ok && result.errors[0]).toMatchObject({
      file: '/nonexistent/rules.yaml',
      problem: 'no such file or directory',
    });
  });

  it('invalid YAML is reported at its line', () => {
    const parsed = parseSourceText('bad.yaml', 'rules:\n  - kind: init\n   tool: [a\n');
    expect(!parsed.ok && parsed.error.line).toBeGreaterThanOrEqual(2);
  });

  it('invalid JSON is reported as one line, at its line when it can be found', () => {
    const parsed = parseSourceText('bad.json', '{\n  "a": 1,\n  "b": 2,,\n}');
    expect(!parsed.ok && parsed.error).toMatchObject({ code: 'syntax', line: 3 });
    expect(!parsed.ok && parsed.error.problem).toMatch(/^invalid JSON: [^\n]+$/);
  });

  it('a directory given another format is refused', async () => {
    const result = await loadRuleDocuments({ paths: [fixture('refund-contracts')], format: 'letta' });
    expect(!result.ok && result.errors[0]?.code).toBe('directory-format');
  });
});
