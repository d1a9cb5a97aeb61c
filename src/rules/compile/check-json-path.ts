import type { AnyCompiledRule } from '../compiled-rule-set';
import { parseJsonPath } from '../paths/json-path';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';

/** An `invalid-json-path` error when `path` (the rule's `field`) is not a JSONPath toolrail can read. */
export function checkJsonPath(
  rule: AnyCompiledRule,
  check: { path: string; field: string },
  out: RuleDiagnostic[],
): void {
  const parsed = parseJsonPath(check.path);
  if (parsed.ok) return;
  out.push(
    diagnosticFor(
      rule,
      'error',
      'invalid-json-path',
      `${ruleName(rule)}: ${check.field} ${JSON.stringify(check.path)} is not a JSONPath toolrail can read (${parsed.error})`,
      "write it as $ followed by .key, ['key'] or [n] steps, e.g. $.order_id",
    ),
  );
}
