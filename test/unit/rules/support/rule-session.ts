import type {
  CompiledRuleSet,
  Reason,
  RuleDiagnostic,
  RuleDocument,
  RuleSettings,
  RuleState,
} from '../../../../src/rules/index';
import {
  beginTurn,
  checkEnd,
  compileRuleSet,
  formatDiagnostic,
  importAgentDock,
  importContractDirectory,
  importLetta,
  importToolGraph,
  initialRuleState,
  narrow,
  record,
  startRun,
  validate,
} from '../../../../src/rules/index';

/** A unified rule body as written in a test: `{kind, ...}`. */
export type TestRule = Record<string, unknown> & { kind: string };

/** One document of unified rules, each placed at `rules[i]` of `file`. */
export function documentOf(rules: readonly TestRule[], file = 'rules.yaml', settings?: RuleSettings): RuleDocument {
  return {
    file,
    format: 'toolrail',
    rules: rules.map((rule, index) => ({
      ...rule,
      source: { file, index, path: `rules[${index}]` },
    })) as unknown as RuleDocument['rules'],
    ...(settings ? { settings } : {}),
  };
}

/** Compiles unified rules, failing the test with the diagnostics if they do not compile. */
export function compileRules(
  rules: readonly TestRule[],
  options: { catalog?: readonly string[]; settings?: RuleSettings } = {},
): CompiledRuleSet {
  const result = compileRuleSet({
    documents: [documentOf(rules)],
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.settings ? { options: options.settings } : {}),
  });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}

/** The errors of rules that must not compile. */
export function compileErrors(rules: readonly TestRule[], catalog?: readonly string[]): RuleDiagnostic[] {
  const result = compileRuleSet({ documents: [documentOf(rules)], ...(catalog ? { catalog } : {}) });
  if (result.ok) throw new Error('expected the rules to be refused');
  return result.errors;
}

/** The warnings of rules that compile. */
export function compileWarnings(rules: readonly TestRule[], catalog?: readonly string[]): RuleDiagnostic[] {
  const result = compileRuleSet({ documents: [documentOf(rules)], ...(catalog ? { catalog } : {}) });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.warnings;
}

/** Drives the engine the way the session workflow does, for tests: runs, turns, calls in order. */
export class RuleSession {
  state: RuleState;

  constructor(
    readonly rules: CompiledRuleSet,
    readonly catalog: readonly string[],
  ) {
    this.state = initialRuleState(rules);
  }

  /** A user message: a new run. */
  user(message = ''): this {
    this.state = startRun(this.rules, this.state, { userMessage: message });
    return this;
  }

  /** Begins a turn and returns the visible tools. */
  turn(): string[] {
    this.state = beginTurn(this.rules, this.state);
    return narrow(this.rules, this.state, this.catalog).visible;
  }

  /** The visible tools now (no new turn). */
  visible(): string[] {
    return narrow(this.rules, this.state, this.catalog).visible;
  }

  /** Why a tool is hidden now ([] when visible). */
  hiddenReasons(tool: string): Reason[] {
    return narrow(this.rules, this.state, this.catalog).hidden.find((entry) => entry.tool === tool)?.reasons ?? [];
  }

  /** Validates a call and, if allowed, records it with its outcome. Returns the reasons ([] when allowed). */
  call(tool: string, options: { args?: unknown; result?: unknown; error?: boolean } = {}): Reason[] {
    const args = options.args ?? {};
    const verdict = validate(this.rules, this.state, { tool, args }, this.catalog);
    if (verdict.verdict === 'allowed') {
      this.state = record(this.rules, this.state, {
        tool,
        args,
        result: options.result ?? null,
        error: options.error ?? false,
      });
    }
    return verdict.reasons;
  }

  /** Codes of the reasons a call gets (calls it: records it when allowed). */
  codes(tool: string, options: { args?: unknown; result?: unknown; error?: boolean } = {}): string[] {
    return this.call(tool, options).map((reason) => reason.code);
  }

  /** Calls a sequence of tools that must all be allowed, with null results. */
  run(...tools: string[]): this {
    for (const tool of tools) {
      const reasons = this.call(tool);
      if (reasons.length > 0) throw new Error(`${tool} was blocked: ${reasons.map((r) => r.code).join(', ')}`);
    }
    return this;
  }

  /** Whether a text answer would end the run now, and the reason codes if not. */
  end(): { endsRun: boolean; codes: string[] } {
    const result = checkEnd(this.rules, this.state);
    return { endsRun: result.endsRun, codes: result.reasons.map((reason) => reason.code) };
  }
}

/** Compiles Letta `tool_rules` (through the Letta importer), failing the test on errors. */
export function lettaRules(
  toolRules: readonly Record<string, unknown>[],
  catalog?: readonly string[],
): CompiledRuleSet {
  const imported = importLetta({ file: 'letta.json', value: toolRules });
  if (!imported.ok) throw new Error(imported.errors.map((error) => formatDiagnostic(error)).join('\n'));
  const result = compileRuleSet({ documents: [imported.document], ...(catalog ? { catalog } : {}) });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}

/** Compiles agent-tool-graph declarations (through its importer), failing the test on errors. */
export function graphRules(value: unknown, catalog?: readonly string[]): CompiledRuleSet {
  const imported = importToolGraph({ file: 'graph.yaml', value });
  if (!imported.ok) throw new Error(imported.errors.map((error) => formatDiagnostic(error)).join('\n'));
  const result = compileRuleSet({ documents: [imported.document], ...(catalog ? { catalog } : {}) });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}

/** Validates and records each tool in order; the index of the first blocked one, or -1. */
export function firstBlocked(rules: CompiledRuleSet, catalog: readonly string[], tools: readonly string[]): number {
  const session = new RuleSession(rules, catalog).user();
  return tools.findIndex((tool) => session.call(tool).length > 0);
}

/** Compiles an AgentDock orchestration config (through its importer), failing the test on errors. */
export function agentDockRules(value: unknown, catalog?: readonly string[]): CompiledRuleSet {
  const imported = importAgentDock({ file: 'orchestration.json', value });
  if (!imported.ok) throw new Error(imported.errors.map((error) => formatDiagnostic(error)).join('\n'));
  const result = compileRuleSet({ documents: [imported.document], ...(catalog ? { catalog } : {}) });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}

/** Compiles a contract directory given as `{tool file name: contract}` (through its importer). */
export function contractRules(
  contracts: Record<string, Record<string, unknown>>,
  options: { session?: Record<string, unknown>; catalog?: readonly string[] } = {},
): CompiledRuleSet {
  const imported = importContractDirectory({
    directory: 'contracts',
    contracts: Object.entries(contracts).map(([name, value]) => ({ file: `contracts/${name}.yaml`, value })),
    ...(options.session ? { session: { file: 'contracts/session.yaml', value: options.session } } : {}),
  });
  if (!imported.ok) throw new Error(imported.errors.map((error) => formatDiagnostic(error)).join('\n'));
  const result = compileRuleSet({
    documents: [imported.document],
    ...(options.catalog ? { catalog: options.catalog } : {}),
  });
  if (!result.ok) throw new Error(result.errors.map((error) => formatDiagnostic(error)).join('\n'));
  return result.rules;
}
