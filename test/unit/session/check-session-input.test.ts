import { describe, expect, it } from 'vitest';
import { checkSessionInput } from '../../../src/session';
import type { InputProblem } from '../../../src/session';
import { TolerantPayloadConverter } from '../../../src/session/payload-converter';
import { unreadableClaimPayload } from '../../../src/store/unreadable-claim-payload';
import { compileRules } from '../../helpers/compile-rules';

const rulesFile = {
  toolrail: 1,
  rules: [{ kind: 'requires', tool: 'issue_refund', after: ['check_eligibility'] }],
};
const rules = compileRules(rulesFile);
const model = { provider: 'scripted', model: 'chat' };
const good = { rules, model, firstMessage: 'Refund ORD-1' };

function problems(value: unknown): InputProblem[] {
  const checked = checkSessionInput(value);
  if (checked.ok) throw new Error('expected the input to be refused');
  return checked.problems;
}

function lines(value: unknown): string[] {
  return problems(value).map(({ path, problem }) => `${path}: ${problem}`);
}

describe('checkSessionInput', () => {
  it('accepts a compiled rule set with its model and returns the input', () => {
    expect(checkSessionInput(good)).toEqual({ ok: true, input: good });
  });

  it('refuses no input, null (Python None) and a list, saying what to give', () => {
    expect(lines(undefined)).toEqual([
      ': no start input (none, or None in Python): give one argument, the session input object (`toolrail input` prints one)',
    ]);
    expect(lines(null)[0]).toMatch(/^: the start input is null: give one argument/);
    expect(lines([good])[0]).toMatch(/^: the start input must be an object, got a list/);
  });

  it('refuses an input the worker could not decode, naming its encoding', () => {
    const converter = new TolerantPayloadConverter();
    const marker = converter.fromPayload({
      metadata: { encoding: new TextEncoder().encode('binary/encrypted') },
      data: new Uint8Array([1, 2, 3]),
    });
    expect(lines(marker)[0]).toMatch(
      /^: the start input could not be decoded \(encoding binary\/encrypted: .*\); .*same codecs as the workers$/,
    );
  });

  it('refuses an input that is an External Storage claim the worker can never read, saying why', () => {
    const converter = new TolerantPayloadConverter();
    const why = { code: 'CONTENT_MISSING' as const, message: 'its content (key k of session "s") is gone' };
    expect(lines(converter.fromPayload(unreadableClaimPayload(why)))).toEqual([
      ': the start input is an External Storage claim that cannot be read (CONTENT_MISSING): its content (key k of session "s") is gone',
    ]);
  });

  it('lists a missing rules and model together', () => {
    expect(lines({ firstMessage: 'hi' })).toEqual([
      'model: missing (expected object)',
      'rules: missing (expected object)',
    ]);
  });

  it('names misspelt and snake_case keys with the key they meant, at every level', () => {
    expect(lines({ ...good, firstMesage: 'x', limits: { max_turns_per_run: 3 } })).toEqual([
      ': unknown key "firstMesage" (did you mean "firstMessage"?)',
      'limits: unknown key "max_turns_per_run" (did you mean "maxTurnsPerRun"?)',
    ]);
    expect(lines({ ...good, first_message: 'x' })).toEqual([
      ': unknown key "first_message" (did you mean "firstMessage"?)',
    ]);
    expect(lines({ ...good, 'limits.maxTurns': 3 })).toEqual([': unknown key "limits.maxTurns"']);
  });

  it('checks types: a number as the first message, a duration as text, an unknown sibling abort', () => {
    expect(
      lines({ ...good, firstMessage: 42, limits: { approvalTimeoutMs: '1h', siblingAbort: 'sometimes' } }),
    ).toEqual([
      'firstMessage: expected string, got 42',
      'limits.approvalTimeoutMs: expected number, got "1h"',
      'limits.siblingAbort: Invalid option: expected one of "on-error"|"never", got "sometimes"',
    ]);
    expect(lines({ ...good, firstMessage: '   ' })).toEqual(['firstMessage: the message is empty']);
  });

  it('refuses a first message over the session byte limit, in UTF-8 bytes', () => {
    expect(lines({ ...good, firstMessage: '日本', limits: { maxUserMessageBytes: 5 } })).toEqual([
      'firstMessage: the message is 6 bytes (UTF-8); this session takes at most 5 bytes (limits.maxUserMessageBytes)',
    ]);
  });

  it('refuses the rules file content given instead of a compiled rule set, in one problem', () => {
    expect(lines({ ...good, rules: rulesFile })).toEqual([
      'rules: this is the content of a toolrail rules file, not a compiled rule set; compile it first: `toolrail input --rules FILE` prints a ready start input (in code: loadRuleSet or compileRuleSet)',
    ]);
    expect(lines({ ...good, rules: [{ type: 'run_first', tool_name: 'a' }] })[0]).toMatch(
      /^rules: this is the content of a letta rules file/,
    );
  });

  it('checks the compiled rule set format and version', () => {
    expect(lines({ ...good, rules: { ...rules, format: 'toolrail.rules' } })[0]).toMatch(
      /^rules\.format: expected "toolrail\.compiled-rules", got "toolrail\.rules"/,
    );
    expect(lines({ ...good, rules: { ...rules, version: 2 } })).toEqual([
      'rules.version: this worker reads compiled rule sets of version 1, got 2: compile the rules with the toolrail version the workers run',
    ]);
  });

  it('refuses an unknown rule kind and a hand-written rule without its ref', () => {
    const [rule] = rules.rules;
    expect(lines({ ...good, rules: { ...rules, rules: [{ ...rule, kind: 'requirez' }] } })[0]).toMatch(
      /^rules\.rules\[0\]\.kind: Invalid discriminator value\. Expected 'requires' \| 'forbids_after' \|/,
    );
    const handWritten = { kind: 'requires', tool: 'b', after: ['a'], mode: 'all', scope: 'session' };
    expect(lines({ ...good, rules: { ...rules, rules: [handWritten] } })).toEqual([
      'rules.rules[0].ref: missing (expected object)',
    ]);
  });

  it('runs the load-time checks on a compiled rule set given as data', () => {
    const ref = (index: number) => ({
      kind: 'requires',
      id: `r${index}`,
      file: 'hand.json',
      index,
      path: `rules[${index}]`,
    });
    const cycle = [
      { kind: 'requires', tool: 'a', after: ['b'], mode: 'all', scope: 'session', ref: ref(0) },
      { kind: 'requires', tool: 'b', after: ['a'], mode: 'all', scope: 'session', ref: ref(1) },
    ];
    const found = problems({ ...good, rules: { ...rules, rules: cycle } });
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.path).toMatch(/^rules\.rules\[[01]\]$/);
    expect(found[0]?.problem).toMatch(/cycle/);
  });

  it('refuses carried, which only continue-as-new sets', () => {
    expect(lines({ ...good, carried: {} })).toEqual([
      'carried: set only by continue-as-new: remove it from a start input',
    ]);
  });

  it('accepts a first message already in the content store, and refuses it beside firstMessage or malformed', () => {
    const firstMessageRef = { key: 'a'.repeat(64), bytes: 800_000, preview: 'Refund ORD-1 …', role: 'user' };
    const { firstMessage: _text, ...withoutText } = good;
    const stored = { ...withoutText, firstMessageRef, limits: { storeRetryIntervalMs: 500 } };
    expect(checkSessionInput(stored)).toEqual({ ok: true, input: stored });
    expect(lines({ ...good, firstMessageRef })).toEqual([
      'firstMessageRef: give firstMessage or firstMessageRef, not both',
    ]);
    expect(lines({ ...withoutText, firstMessageRef: { ...firstMessageRef, key: 'ORD-1', role: 'tool' } })).toEqual([
      'firstMessageRef.key: expected the SHA-256 of the stored message, lower-case hex, got "ORD-1"',
      'firstMessageRef.role: Invalid input: expected "user", got "tool"',
    ]);
  });
});
