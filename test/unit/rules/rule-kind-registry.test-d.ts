// Checked by `npm run typecheck` (tsc), not run by vitest.
// A kind module lacking a piece, or a kind missing from the registry, does not compile.
import type { RuleKind, RuleKindModule } from '../../../src/rules/index';
import { ruleKinds } from '../../../src/rules/index';
import { requiresKind } from '../../../src/rules/kinds/requires-kind';

type Requires = RuleKindModule<'requires', null>;

/** `value`'s type without one of its pieces. */
function without<Value, Piece extends keyof Value>(value: Value, _piece: Piece): Omit<Value, Piece> {
  return value;
}

/** A complete module is the module of its kind. */
export const complete: Requires = requiresKind;

/** Each piece of a kind module is required: none may be left out (a piece that does nothing says so). */
type OptionalPieces = {
  [Piece in keyof Requires]-?: undefined extends Requires[Piece] ? Piece : never;
}[keyof Requires];
export const noOptionalPiece: [OptionalPieces] extends [never] ? true : false = true;

// @ts-expect-error -- a module without `describe` is not a kind module
export const lackingDescribe: Requires = without(requiresKind, 'describe');

// @ts-expect-error -- a module without `formats` is not a kind module
export const lackingFormats: Requires = without(requiresKind, 'formats');

// @ts-expect-error -- a module without `index` (its checks and recorders) is not a kind module
export const lackingIndex: Requires = without(requiresKind, 'index');

// @ts-expect-error -- the module of one kind is not the module of another
export const otherKind: RuleKindModule<'init'> = requiresKind;

/** The registry has a module for every kind `RuleKindTypes` declares... */
export const registry: { readonly [K in RuleKind]: RuleKindModule<K> } = ruleKinds;

// @ts-expect-error -- ...so a registry missing one does not compile
export const incomplete: { readonly [K in RuleKind]: RuleKindModule<K> } = without(ruleKinds, 'init');
