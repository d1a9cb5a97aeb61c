import type { RuleFormat } from '../rule-format';
import type { ValuePath } from '../formats/source-locator';

/** What an importer lends a kind's mapping: diagnostics at a path of the file, and keys in file order. */
export interface ImportSink {
  report(severity: 'error' | 'warning', code: string, path: ValuePath, problem: string, fix: string): void;
  /** Keys of the object at `path`, in file order when known. */
  keysOf(path: ValuePath, value: object): string[];
}

/** A rule body a mapping made from a native entry, checked by the importer with the unified schema. */
export interface MappedRule {
  /** The unified body: `{kind, ...}`. */
  readonly body: Record<string, unknown>;
  /** Where the rule is written in the file, when not where the importer looked (a contract's field). */
  readonly at?: ValuePath;
  /** Where the body's fields are written in the file, when not at the same names: unified → native name. */
  readonly renames?: Readonly<Record<string, string>>;
  /** Maps a path inside the body to the path in the file; overrides `renames`. */
  readonly fieldPath?: (issuePath: ValuePath) => ValuePath;
}

/** Maps one Letta rule of a `type` (`run_first`, …) to a body, or reports why not and gives `null`. */
export type LettaMapping = (entry: Record<string, unknown>, at: ValuePath, sink: ImportSink) => MappedRule | null;

/** Maps one AgentDock step to a body, or reports why not and gives `null`. */
export type AgentDockMapping = (step: Record<string, unknown>, at: ValuePath, sink: ImportSink) => MappedRule | null;

/** What a contract file's importer lends a kind's mapping: diagnostics, and rules added in order with them. */
export interface ContractSink extends ImportSink {
  add(mapped: MappedRule): void;
}

/** Maps one field of a contract file (`preconditions`, `forbids_after`) about `tool` to rules. */
export interface ContractMapping {
  /** The field of the contract. */
  readonly field: string;
  /** Where its rules come among the contract's (preconditions before forbids_after); lower first. */
  readonly order: number;
  /** Adds the rules the field's value makes (and reports what is wrong with it), in order. */
  map(value: unknown, tool: string, sink: ContractSink): void;
}

/** One agent-tool-graph section (`requires: {tool: [after...]}`) and its key in the per-tool shape (`needs`). */
export interface GraphMapping {
  readonly section: string;
  readonly perToolKey: string;
  /** The body for `tool` and the section's value for it (a list of tools). */
  body(tool: string, list: unknown): Record<string, unknown>;
}

/** What the unified format does with a rule of the kind before the schema check (e.g. a mapping object to a list). */
export interface ToolrailMapping {
  normalize(rule: Record<string, unknown>, at: ValuePath, sink: ImportSink): Record<string, unknown>;
}

/** The mapping each format takes: Letta rules by `type`, contract fields by name, graph sections. */
export interface FormatMappings {
  readonly toolrail: ToolrailMapping;
  readonly letta: { readonly [type: string]: LettaMapping };
  readonly agentdock: AgentDockMapping;
  readonly contracts: readonly ContractMapping[];
  readonly graph: readonly GraphMapping[];
}

/** How each format that has a kind maps to it: a table over the formats, each entry optional. */
export type KindFormats = { readonly [F in RuleFormat]?: FormatMappings[F] };
