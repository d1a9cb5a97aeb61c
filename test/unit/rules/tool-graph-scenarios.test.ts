import { describe, expect, it } from 'vitest';
import { compileRuleSet, importToolGraph } from '../../../src/rules/index';
import { RuleSession, firstBlocked, graphRules } from './support/rule-session';

/** Completes `history` in order (each must be allowed), then returns the reasons a call of `tool` gets. */
function check(declarations: unknown, tool: string, history: string[] = []) {
  const tools = new Set<string>([tool, ...history]);
  const collect = (value: unknown): void => {
    if (typeof value === 'string') tools.add(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (!['requires', 'needs_any', 'forbid_after', 'needs'].includes(key)) tools.add(key);
        collect(inner);
      }
    }
  };
  collect(declarations);
  const catalog = [...tools];
  const session = new RuleSession(graphRules(declarations, catalog), catalog).user();
  session.run(...history);
  return session.call(tool);
}

const codes = (reasons: { code: string }[]) => reasons.map((reason) => reason.code);

describe('agent-tool-graph: run-time checks', () => {
  it('A1/A2: with no rules every call is allowed', () => {
    expect(check({ requires: {} }, 'anything')).toEqual([]);
    expect(check({ requires: {} }, 'foo', ['bar', 'baz'])).toEqual([]);
  });

  it('A3: a tool with no rule passes', () => {
    expect(check({ requires: { known: ['other'] } }, 'unrelated')).toEqual([]);
  });

  it('A4: a met prerequisite allows the call', () => {
    expect(check({ requires: { query_db: ['login'] } }, 'query_db', ['login'])).toEqual([]);
    expect(check({ requires: { query_db: ['login'] } }, 'query_db', ['login', 'other'])).toEqual([]);
  });

  it('A5: a missing prerequisite blocks with prerequisite_not_met naming it', () => {
    const [reason, ...rest] = check({ requires: { query_db: ['login'] } }, 'query_db');
    expect(rest).toEqual([]);
    expect(reason).toMatchObject({ code: 'prerequisite_not_met', callFirst: ['login'] });
    expect(reason?.message).toContain('login');
  });

  it('A6: a single name stands for a one-item list', () => {
    expect(check({ requires: { checkout: 'add_to_cart' } }, 'checkout', ['add_to_cart'])).toEqual([]);
    expect(codes(check({ requires: { checkout: 'add_to_cart' } }, 'checkout'))).toEqual(['prerequisite_not_met']);
  });

  it('A7-A9: an all-gate names only the prerequisites still missing', () => {
    const rules = { requires: { send_email: ['compose_email', 'verify_recipient'] } };
    expect(check(rules, 'send_email', ['compose_email', 'verify_recipient'])).toEqual([]);
    expect(check(rules, 'send_email', ['compose_email'])[0]?.callFirst).toEqual(['verify_recipient']);
    expect(check(rules, 'send_email')[0]?.callFirst).toEqual(['compose_email', 'verify_recipient']);
  });

  it('A10: several prerequisites as a list', () => {
    expect(check({ requires: { ship: ['pack', 'label'] } }, 'ship', ['pack', 'label'])).toEqual([]);
    expect(check({ requires: { ship: ['pack', 'label'] } }, 'ship', ['pack'])[0]?.callFirst).toEqual(['label']);
  });

  it('A11-A13: an any-gate is met by one of its tools and names the whole set when none ran', () => {
    const rules = { needs_any: { checkout: ['add_to_cart', 'buy_now'] } };
    expect(check(rules, 'checkout', ['add_to_cart'])).toEqual([]);
    expect(check(rules, 'checkout', ['buy_now'])).toEqual([]);
    expect(check(rules, 'checkout', ['add_to_cart', 'buy_now'])).toEqual([]);
    const [reason] = check(rules, 'checkout', ['browse']);
    expect(reason?.code).toBe('prerequisite_not_met');
    expect(reason?.message).toContain('add_to_cart or buy_now');
    expect(codes(check({ needs_any: { notify: ['email', 'sms'] } }, 'notify', ['push']))).toEqual([
      'prerequisite_not_met',
    ]);
  });

  it('A14-A16: all- and any-gates on one tool must both hold', () => {
    const rules = { requires: { publish: ['login'] }, needs_any: { publish: ['draft', 'import'] } };
    expect(check(rules, 'publish', ['login', 'draft'])).toEqual([]);
    expect(check(rules, 'publish', ['draft'])[0]?.callFirst).toEqual(['login']);
    expect(check(rules, 'publish', ['login'])[0]?.callFirst).toEqual(['draft']);
  });

  it('A17/A18: a tool that forbids itself can run once', () => {
    expect(check({ forbid_after: { login: ['login'] } }, 'login')).toEqual([]);
    expect(codes(check({ forbid_after: { login: ['login'] } }, 'login', ['login']))).toEqual(['forbidden_after']);
  });

  it('A19/A20: forbidden tools stay forbidden for the rest of the session, not only the next call', () => {
    const rules = { forbid_after: { refund: ['charge', 'ship'] } };
    expect(check(rules, 'charge')).toEqual([]);
    expect(codes(check(rules, 'charge', ['refund']))).toEqual(['forbidden_after']);
    expect(codes(check(rules, 'ship', ['refund', 'other']))).toEqual(['forbidden_after']);
  });

  it('A21: a tool with no rule of its own can still be forbidden', () => {
    const [reason] = check({ forbid_after: { refund: ['checkout'] } }, 'checkout', ['refund']);
    expect(reason?.code).toBe('forbidden_after');
    expect(reason?.message).toContain('refund');
  });

  it('A22/A23: a prerequisite and a self-forbid combine', () => {
    const rules = { requires: { send_email: ['compose_email'] }, forbid_after: { send_email: ['send_email'] } };
    expect(check(rules, 'send_email', ['compose_email'])).toEqual([]);
    expect(codes(check(rules, 'send_email', ['compose_email', 'send_email']))).toEqual(['forbidden_after']);
  });

  it('A24: forbidden comes before a missing prerequisite', () => {
    const rules = { requires: { checkout: ['add_to_cart'] }, forbid_after: { refund: ['checkout'] } };
    expect(codes(check(rules, 'checkout', ['refund']))).toEqual(['forbidden_after', 'prerequisite_not_met']);
  });

  it('A25-A27: each failure has its own code', () => {
    const rules = { requires: { a: ['b'] }, forbid_after: { x: ['y'] } };
    expect(codes(check(rules, 'a'))).toEqual(['prerequisite_not_met']);
    expect(codes(check(rules, 'y', ['x']))).toEqual(['forbidden_after']);
    expect(check(rules, 'a', ['b'])).toEqual([]);
    expect(check(rules, 'y')).toEqual([]);
  });

  it('A28-A31: prerequisites are checked one level at a time, and callFirst follows them transitively', () => {
    const rules = { requires: { B: ['A'], C: ['B'] } };
    expect(check(rules, 'A')).toEqual([]);
    expect(codes(check(rules, 'B'))).toEqual(['prerequisite_not_met']);
    expect(check(rules, 'B', ['A'])).toEqual([]);
    expect(check(rules, 'C', ['A'])[0]?.callFirst).toEqual(['B']);
    expect(check(rules, 'C')[0]?.callFirst).toEqual(['A', 'B']);
    expect(check(rules, 'C', ['A', 'B'])).toEqual([]);
  });
});

describe('agent-tool-graph: sequences of calls', () => {
  const catalog = ['login', 'query_db', 'respond', 'setup', 'a', 'b', 'c', 'add_to_cart', 'checkout', 'refund'];

  it('A32/A33: a full plan passes; a plan without login fails at its first call', () => {
    const rules = graphRules({ requires: { query_db: ['login'], respond: ['query_db'] } }, catalog);
    expect(firstBlocked(rules, catalog, ['login', 'query_db', 'respond'])).toBe(-1);
    expect(firstBlocked(rules, catalog, ['query_db', 'respond'])).toBe(0);
  });

  it('A34: checking stops at the first failure', () => {
    const rules = graphRules({ requires: { a: ['setup'], b: ['setup'], c: ['setup'] } }, catalog);
    expect(firstBlocked(rules, catalog, ['a', 'b', 'c'])).toBe(0);
  });

  it('A35-A37: a forbidden repeat fails at its index', () => {
    expect(firstBlocked(graphRules({ forbid_after: { login: ['login'] } }, catalog), catalog, ['login', 'login'])).toBe(
      1,
    );
    const cart = graphRules({ requires: { checkout: ['add_to_cart'] } }, catalog);
    expect(firstBlocked(cart, catalog, ['add_to_cart', 'checkout'])).toBe(-1);
    expect(firstBlocked(cart, catalog, ['checkout', 'add_to_cart'])).toBe(0);
    expect(
      firstBlocked(graphRules({ forbid_after: { refund: ['checkout'] } }, catalog), catalog, ['refund', 'checkout']),
    ).toBe(1);
  });

  it('A38: a chain in order passes', () => {
    expect(firstBlocked(graphRules({ requires: { b: ['a'], c: ['b'] } }, catalog), catalog, ['a', 'b', 'c'])).toBe(-1);
  });
});

describe('agent-tool-graph: declarations', () => {
  it('A39: two declarations for one tool both apply', () => {
    const catalog = ['t', 'a', 'b'];
    const rules = graphRules({ requires: { t: ['a'] }, needs_any: { t: ['b'] } }, catalog);
    const session = new RuleSession(rules, catalog).user();
    expect(session.call('t').map((r) => r.callFirst)).toEqual([['a'], ['b']]);
  });

  it('A44/A45: the to_dict shape loads, forbid-only entries included, and behaves the same after a JSON round trip', () => {
    const catalog = ['send_email', 'compose_email', 'verify_recipient', 'login', 'refund', 'checkout'];
    const rules = graphRules(
      {
        send_email: { needs: ['compose_email', 'verify_recipient'], needs_any: [], forbid_after: ['send_email'] },
        login: { needs: [], needs_any: [], forbid_after: ['login'] },
        refund: { forbid_after: ['checkout'] },
      },
      catalog,
    );
    const copy = JSON.parse(JSON.stringify(rules)) as typeof rules;
    const session = new RuleSession(copy, catalog).user();
    session.run('login', 'compose_email', 'verify_recipient', 'send_email', 'refund');
    expect(codes(session.call('login'))).toEqual(['forbidden_after']);
    expect(codes(session.call('checkout'))).toEqual(['forbidden_after']);
  });

  it('A46: a file that is not an object is refused', () => {
    expect(importToolGraph({ file: 'g.json', value: 'nope' }).ok).toBe(false);
  });

  it('A47: an empty tool name is refused', () => {
    expect(importToolGraph({ file: 'g.json', value: { requires: { '': ['x'] } } }).ok).toBe(false);
  });

  it('A48: forbid_after with nothing to forbid is refused', () => {
    expect(importToolGraph({ file: 'g.json', value: { forbid_after: { t: [] } } }).ok).toBe(false);
  });
});

describe('agent-tool-graph: static graph (cycles, transitive order)', () => {
  it('A50: callFirst gives a valid execution order, prerequisites first', () => {
    const catalog = ['fetch', 'parse', 'extract', 'a', 'b', 'c', 'd'];
    const rules = graphRules(
      { requires: { parse: ['fetch'], extract: ['parse'], b: ['a'], c: ['a'], d: ['b', 'c'] } },
      catalog,
    );
    const session = new RuleSession(rules, catalog).user();
    expect(session.call('extract')[0]?.callFirst).toEqual(['fetch', 'parse']);
    expect(session.call('d')[0]?.callFirst).toEqual(['a', 'b', 'c']);
  });

  it('A51: a prerequisite cycle is refused at load, naming the cycle', () => {
    const imported = importToolGraph({ file: 'g.yaml', value: { requires: { a: ['b'], b: ['a'] } } });
    if (!imported.ok) throw new Error('import failed');
    const result = compileRuleSet({ documents: [imported.document] });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatchObject({ code: 'prerequisite-cycle' });
      expect(result.errors[0]?.problem).toContain('a requires b requires a');
    }
  });

  it('A51/A52: a prerequisite that is not in the catalog is refused at load', () => {
    const imported = importToolGraph({ file: 'g.yaml', value: { requires: { b: ['a'] } } });
    if (!imported.ok) throw new Error('import failed');
    const result = compileRuleSet({ documents: [imported.document], catalog: ['b'] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.problem).toContain('"a", which is not in the catalog');
  });
});
