import type { ReasonCode as ReasonCodeName } from '../reason-code';
import { builtinReasonCodes } from '../reason-code';
import { ruleKinds } from './rule-kinds';

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

type KindReasonCodes = Intersection<(typeof ruleKinds)[keyof typeof ruleKinds]['reasonCodes']>;

/**
 * Why a tool is hidden, a call refused, or a text answer not accepted: the built-in codes and every
 * kind's, by a camel-case name. These strings are stable: they end up in Temporal histories and in
 * `toolrail simulate` output.
 */
export const ReasonCode = Object.assign(
  {},
  builtinReasonCodes,
  ...Object.values(ruleKinds).map((kind) => kind.reasonCodes),
) as typeof builtinReasonCodes & KindReasonCodes;

/** One of the {@link ReasonCode} strings. */
export type ReasonCode = ReasonCodeName;
