/**
 * What each rule kind declares about itself, by its name: the rule body its schema gives (`rule`), the
 * fields it adds to the rule state (`state`) and to the state's readable view (`view`), and the reason
 * codes it gives (`reasonCode`). Each kind module adds its own entry with `declare module`, and the
 * registry (`kinds/rule-kinds.ts`) must list every kind named here, or the typecheck fails.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- each kind module adds its entry
export interface RuleKindTypes {}

/** The shape of one entry of {@link RuleKindTypes}. */
export interface RuleKindTypeEntry {
  readonly rule: { readonly kind: string };
  readonly state: object;
  readonly view: object;
  readonly reasonCode: string;
}

/** No fields: the `state` or `view` of a kind that adds none. */
export type NoFields = Record<never, never>;

/** One of the rule kinds (`requires`, `forbids_after`, …): the names of {@link RuleKindTypes}. */
export type RuleKind = keyof RuleKindTypes;

type EntryOf<K extends RuleKind> = Extract<RuleKindTypes[K], RuleKindTypeEntry>;

/** The body of a rule of kind `K`, as its schema gives it (defaults applied). */
export type RuleBodyOf<K extends RuleKind> = EntryOf<K>['rule'];

/** A rule's body as the unified model holds it (defaults applied): one of every kind's bodies. */
export type RuleBody = { [K in RuleKind]: RuleBodyOf<K> }[RuleKind];

/** The reason codes the kinds give. */
export type KindReasonCode = EntryOf<RuleKind>['reasonCode'];

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** The fields every kind adds to the rule state, together. */
export type KindStateFields = Intersection<{ [K in RuleKind]: EntryOf<K>['state'] }[RuleKind]>;

/** The fields every kind adds to the rule state's readable view, together. */
export type KindViewFields = Intersection<{ [K in RuleKind]: EntryOf<K>['view'] }[RuleKind]>;
