import type { RuleFormat } from '../rule-format';
import type { FormatMappings } from './kind-formats';
import { registeredRuleKinds } from './registered-rule-kinds';

/** What every registered kind that a format has maps from it, in the registry's order, with the kind's name. */
export function formatMappingsOf<F extends RuleFormat>(format: F): { kind: string; mapping: FormatMappings[F] }[] {
  return registeredRuleKinds().flatMap((kind) => {
    const mapping = kind.formats[format] as FormatMappings[F] | undefined;
    return mapping === undefined ? [] : [{ kind: kind.kind, mapping }];
  });
}
