import type { Positioned, RuleOfKind } from '../rule-kind-module';

/** What the `precondition` kind indexes. */
export interface PreconditionIndex {
  /** Slot in the state's `captures` of each rule (by position) that checks output or binds a resource. */
  readonly captureSlots: ReadonlyMap<number, number>;
  /** Per tool: its preconditions, enforced ones first (so shadow ones see their combined constraints), in order. */
  readonly byTool: ReadonlyMap<string, readonly Positioned<RuleOfKind<'precondition'>>[]>;
}
