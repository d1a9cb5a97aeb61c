import { initialRuleState } from '../rules';
import type { CompiledRuleSet, RuleState } from '../rules';
import { RuleStateInvalidError } from './errors/rule-state-invalid-error';

const runEnds: readonly unknown[] = ['terminal', 'answered', 'no_tool_allowed', 'turn_limit'];
const counters = ['run', 'turn', 'runTurns', 'runCompleted', 'completed'] as const satisfies (keyof RuleState)[];
const slotArrays = [
  'attemptsRun',
  'attemptsSession',
  'doneRun',
  'doneSession',
  'forbidden',
] as const satisfies (keyof RuleState)[];

/** Thrown inside the check; turned into the public error by {@link readRuleState}. */
function fail(path: string, problem: string): never {
  throw new RuleStateInvalidError({ path, problem });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function integer(value: unknown, path: string, minimum = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    fail(path, `${JSON.stringify(value)} is not an integer of at least ${minimum}`);
  }
  return value;
}

function array(value: unknown, path: string, length?: number): unknown[] {
  if (!Array.isArray(value)) fail(path, 'it is not an array');
  if (length !== undefined && value.length !== length) {
    fail(path, `it has ${value.length} entries where these rules have ${length} (was it saved for other rules?)`);
  }
  return value;
}

function stringOrNull(value: unknown, path: string): void {
  if (value !== null && typeof value !== 'string') fail(path, 'it is neither a string nor null');
}

/** A slot array: the template's chunks, each of the template's length, of integers up to `maximum`. */
function checkSlots(value: unknown, template: readonly (readonly number[])[], path: string, maximum: number): void {
  array(value, path, template.length).forEach((chunk, c) => {
    array(chunk, `${path}[${c}]`, template[c]?.length).forEach((slot, s) => {
      if (integer(slot, `${path}[${c}][${s}]`) > maximum) fail(`${path}[${c}][${s}]`, `${String(slot)} is too large`);
    });
  });
}

function checkLast(value: unknown, ruleCount: number): void {
  if (value === null) return;
  if (!isRecord(value) || typeof value['tool'] !== 'string')
    fail('$.last', 'it is neither null nor { tool, conditional }');
  array(value['conditional'], '$.last.conditional').forEach((decision, d) => {
    const path = `$.last.conditional[${d}]`;
    if (!isRecord(decision)) fail(path, 'it is not an object');
    if (integer(decision['rule'], `${path}.rule`) >= ruleCount) fail(`${path}.rule`, 'no rule has this index');
    if (decision['allow'] !== null) {
      array(decision['allow'], `${path}.allow`).forEach((tool, t) => {
        if (typeof tool !== 'string') fail(`${path}.allow[${t}]`, 'it is not a tool name');
      });
    }
    stringOrNull(decision['matched'], `${path}.matched`);
  });
}

function checkCaptures(value: unknown, template: RuleState['captures']): void {
  array(value, '$.captures', template.length).forEach((table, t) => {
    array(table, `$.captures[${t}]`, template[t]?.length).forEach((bucket, b) => {
      array(bucket, `$.captures[${t}][${b}]`).forEach((capture, c) => {
        const path = `$.captures[${t}][${b}][${c}]`;
        if (!isRecord(capture) || typeof capture['got'] !== 'string') fail(path, 'it is not a captured output verdict');
        stringOrNull(capture['key'], `${path}.key`);
        integer(capture['failed'], `${path}.failed`, -1);
        integer(capture['seq'], `${path}.seq`);
      });
    });
  });
}

function checkOrchestrations(value: unknown, template: RuleState['orchestrations']): void {
  array(value, '$.orchestrations', template.length).forEach((orchestration, o) => {
    const path = `$.orchestrations[${o}]`;
    if (!isRecord(orchestration)) fail(path, 'it is not an object');
    const messageOk = template[o]?.messageOk ?? [];
    if (orchestration['active'] !== null) {
      integer(orchestration['active'], `${path}.active`);
    }
    integer(orchestration['position'], `${path}.position`);
    array(orchestration['messageOk'], `${path}.messageOk`, messageOk.length).forEach((flag, f) =>
      integer(flag, `${path}.messageOk[${f}]`),
    );
  });
}

/** A field the checks above do not know (a newer engine's): it must at least have the template's JSON kind. */
function checkKind(value: unknown, template: unknown, path: string): void {
  const kind = (of: unknown): string => (of === null ? 'null' : Array.isArray(of) ? 'array' : typeof of);
  if (kind(value) !== kind(template)) fail(path, `it is ${kind(value)} where a rule state has ${kind(template)}`);
}

/**
 * Reads a stored rule state (the object, or its JSON text) for `rules`: its fields are those of a
 * rule state of these rules, with their types and sizes (a state saved for other rules is refused).
 * Touches nothing.
 *
 * @throws RuleStateInvalidError naming where the state is wrong.
 */
export function readRuleState(rules: CompiledRuleSet, stored: unknown): RuleState {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored) as unknown;
    } catch (error) {
      fail('$', `the text is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (!isRecord(value)) fail('$', 'it is not an object');
  const template = initialRuleState(rules);
  const known = new Set(Object.keys(template));
  for (const key of Object.keys(value)) if (!known.has(key)) fail(`$.${key}`, 'no rule state has this field');
  for (const key of known) if (!(key in value)) fail(`$.${key}`, 'it is missing');
  if (value['version'] !== template.version) fail('$.version', `it is ${JSON.stringify(value['version'])}, not 1`);
  for (const key of counters) integer(value[key], `$.${key}`);
  if (value['ended'] !== null && !runEnds.includes(value['ended'])) fail('$.ended', 'it is not a way a run ends');
  if (value['endedBy'] !== null && integer(value['endedBy'], '$.endedBy') >= rules.rules.length) {
    fail('$.endedBy', 'no rule has this index');
  }
  checkLast(value['last'], rules.rules.length);
  for (const key of slotArrays) checkSlots(value[key], template[key], `$.${key}`, rules.rules.length + 1);
  array(value['sequences'], '$.sequences', template.sequences.length).forEach((position, p) =>
    integer(position, `$.sequences[${p}]`),
  );
  checkCaptures(value['captures'], template.captures);
  checkOrchestrations(value['orchestrations'], template.orchestrations);
  array(value['recent'], '$.recent').forEach((tool, t) => {
    if (typeof tool !== 'string') fail(`$.recent[${t}]`, 'it is not a tool name');
  });
  const checked = new Set<string>([
    'version',
    'ended',
    'endedBy',
    'last',
    'sequences',
    'captures',
    'orchestrations',
    'recent',
    ...counters,
    ...slotArrays,
  ]);
  const templateFields = template as unknown as Record<string, unknown>;
  for (const key of known) if (!checked.has(key)) checkKind(value[key], templateFields[key], `$.${key}`);
  return value as unknown as RuleState;
}
