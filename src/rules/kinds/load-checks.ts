import type { RuleDiagnostic } from '../rule-diagnostic';
import type { StaticFacts } from './static-facts';

/** One prerequisite gate a rule puts on its tool: it waits for all of `tools` (or any one, `any`). */
export interface PrerequisiteGate {
  readonly tool: string;
  readonly tools: readonly string[];
  readonly any: boolean;
}

/** Why a rule blocks a tool (in some situation), with where that answer comes among other kinds' answers. */
export interface BlockingFact<Arguments extends unknown[]> {
  /** Lower first, then by rule position: the first answer that is not `null` is the one reported. */
  readonly order: number;
  why(...input: Arguments): string | null;
}

/** A check of one rule against the others, adding diagnostics to `out`. */
export type RuleCheck<Rule> = (rule: Rule, facts: StaticFacts, out: RuleDiagnostic[]) => void;

/**
 * A kind's load-time checks (`compileRuleSet` and `toolrail lint` run them) and the facts it gives the
 * other kinds' checks. The phases run in this order, each over every rule in order, so diagnostics come
 * in a stable order: fields, catalog and cycles (from `tools` and `prerequisites`), start of run,
 * reachability, rules that never fire, steps that never become active.
 */
export interface LoadChecks<Rule> {
  /** Checks inside the rule alone: JSONPaths, regexes, fields that need each other. */
  fields?(rule: Rule, out: RuleDiagnostic[]): void;
  /** The prerequisite gates the rule puts on its tool: the cycle check follows them. */
  prerequisites?(rule: Rule): PrerequisiteGate[];
  /** Why the rule makes `tool` never callable at all. */
  readonly neverCallable?: BlockingFact<[rule: Rule, tool: string, facts: StaticFacts]>;
  /** Why the rule blocks `tool` at the start of a run. */
  readonly blocksAtStart?: BlockingFact<[rule: Rule, tool: string, facts: StaticFacts]>;
  /** Why the rule blocks `tool` right after `previous` completed. */
  readonly blocksRightAfter?: BlockingFact<[rule: Rule, previous: string, tool: string]>;
  /** Whether the run can start at all (e.g. an init tool that another rule blocks). */
  startOfRun?: RuleCheck<Rule>;
  /** Positions, lists or required tools that other rules make impossible. */
  reachability?: RuleCheck<Rule>;
  /** Warnings for a rule that can never fire (after the duplicate check, which `identity` serves). */
  neverFires?: RuleCheck<Rule>;
  /** Warnings for a rule that can never become active (e.g. a step without conditions that is no default). */
  activation?: RuleCheck<Rule>;
  /** The rule with lists whose order does not matter sorted, for the duplicate check (Letta's identity). */
  identity?(rule: Rule): Record<string, unknown>;
}
