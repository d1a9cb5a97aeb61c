import type { RuleKindTypeEntry } from '../rule-kind-types';
import type { AnyRuleKind, RuleKindDefinition } from './rule-kind-module';
import { ruleKinds } from './rule-kinds';

const extraKinds = new Map<string, AnyRuleKind>();
let registered: readonly AnyRuleKind[] | null = null;

/** The kinds the engine knows: the registry's, in its order, then any a test registered. */
export function registeredRuleKinds(): readonly AnyRuleKind[] {
  registered ??= [...(Object.values(ruleKinds) as readonly AnyRuleKind[]), ...extraKinds.values()];
  return registered;
}

/** The module of a kind, or `undefined` when no kind of that name is registered. */
export function ruleKindModule(kind: string): AnyRuleKind | undefined {
  return Object.hasOwn(ruleKinds, kind)
    ? (ruleKinds[kind as keyof typeof ruleKinds] as AnyRuleKind)
    : extraKinds.get(kind);
}

/**
 * Registers a kind defined outside the registry, for tests and experiments (a kind of the package goes in
 * `ruleKinds`): from now on the schema, the compiler, the importers, the engine and the graph handle it.
 * Returns a function that unregisters it. Not for production: a worker's workflow bundle does not run
 * this registration, so a session would not know the kind.
 */
export function registerRuleKind<Name extends string, Types extends RuleKindTypeEntry, Index>(
  module: RuleKindDefinition<Name, Types, Index>,
): () => void {
  if (ruleKindModule(module.kind) !== undefined)
    throw new Error(`a rule kind named ${module.kind} is already registered`);
  extraKinds.set(module.kind, module as unknown as AnyRuleKind);
  registered = null;
  return () => {
    extraKinds.delete(module.kind);
    registered = null;
  };
}
