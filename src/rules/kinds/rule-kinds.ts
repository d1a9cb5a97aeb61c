import type { RuleKind as RuleKindName } from '../rule-kind-types';
import { childKind } from './child-kind';
import { conditionalKind } from './conditional-kind';
import { continueKind } from './continue-kind';
import { defaultKind } from './default-kind';
import { forbidsAfterKind } from './forbids-after-kind';
import { initKind } from './init-kind';
import { maxCountKind } from './max-count-kind';
import { parentKind } from './parent-kind';
import { preconditionKind } from './precondition-kind';
import { requiredBeforeExitKind } from './required-before-exit-kind';
import { requiresApprovalKind } from './requires-approval-kind';
import { requiresKind } from './requires-kind';
import type { RuleKindModule } from './rule-kind-module';
import { sequenceKind } from './sequence-kind';
import { stepKind } from './step-kind';
import { terminalKind } from './terminal-kind';

/**
 * Every rule kind, by name: the one line a kind adds here is all the engine, the compiler, the
 * importers and the graph need to know of it. A kind declared in `RuleKindTypes` but missing here, or
 * a module lacking a piece, fails the typecheck. The order is the order of the schema's alternatives.
 */
export const ruleKinds = {
  requires: requiresKind,
  forbids_after: forbidsAfterKind,
  max_count: maxCountKind,
  precondition: preconditionKind,
  sequence: sequenceKind,
  step: stepKind,
  init: initKind,
  child: childKind,
  parent: parentKind,
  conditional: conditionalKind,
  terminal: terminalKind,
  continue: continueKind,
  required_before_exit: requiredBeforeExitKind,
  requires_approval: requiresApprovalKind,
  default: defaultKind,
} satisfies { readonly [K in RuleKindName]: RuleKindModule<K> };

type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/** Every kind of rule of the unified model by a camel-case name (`RuleKind.forbidsAfter` is `forbids_after`). */
export const RuleKind = Object.fromEntries(
  Object.keys(ruleKinds).map((kind) => [
    kind.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
    kind,
  ]),
) as { readonly [K in RuleKindName as CamelCase<K>]: K };

/** One of the rule kinds (`requires`, `forbids_after`, …). */
export type RuleKind = RuleKindName;
