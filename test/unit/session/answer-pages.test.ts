import { describe, expect, it } from 'vitest';
import { mergeRuleStatePages, ruleStatePage, transcriptPage } from '../../../src/session';
import type { RuleStatePage, SessionRuleStateView, TranscriptEntry } from '../../../src/session';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

function notices(count: number, size = 500): TranscriptEntry[] {
  return Array.from({ length: count }, (_, turn) => ({ kind: 'notice', turn, text: `${turn}:${'é'.repeat(size)}` }));
}

describe('transcript pages', () => {
  it('hold the entries from the cursor within the byte cap, counted in UTF-8, and say where to go on', () => {
    const entries = notices(200);
    const pages = [];
    let cursor: string | undefined;
    for (;;) {
      const page = transcriptPage(entries, 0, cursor, 16_384);
      expect(bytes(page)).toBeLessThanOrEqual(16_384);
      pages.push(page);
      if (!page.more) break;
      cursor = page.next;
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap((page) => page.entries)).toEqual(entries);
    expect(pages.at(-1)?.next).toBe('200');
  });

  it('count positions since the session began: a cursor before the kept entries reports what was skipped, and where the run starts', () => {
    const page = transcriptPage(notices(3), 1_000, '990', 131_072);
    expect(page).toMatchObject({ skipped: 10, next: '1003', more: false, start: 1_000 });
    expect(transcriptPage(notices(3), 1_000, undefined, 131_072)).toMatchObject({ skipped: 0, start: 1_000 });
    expect(page.entries).toHaveLength(3);
    expect(transcriptPage(notices(3), 1_000, '1003', 131_072)).toEqual({
      entries: [],
      next: '1003',
      more: false,
      skipped: 0,
      start: 1_000,
    });
  });

  it('shorten an entry too large for a page alone, and mark it', () => {
    const huge: TranscriptEntry = {
      kind: 'model',
      turn: 0,
      visible: [],
      calls: [{ callId: 'c1', tool: 'write_file', args: { content: 'x'.repeat(300_000) } }],
    };
    const page = transcriptPage([huge, ...notices(1)], 0, undefined, 16_384);
    expect(bytes(page)).toBeLessThanOrEqual(16_384);
    expect(page.entries[0]).toMatchObject({ kind: 'model', shortened: true });
    expect(JSON.stringify(page.entries[0])).toContain('shortened from 300000 characters');
    expect(page).toMatchObject({ more: false, next: '2' });
    expect(page.entries).toHaveLength(2);
  });

  it('refuse a cursor no page gave', () => {
    expect(() => transcriptPage([], 0, 'abc', 16_384)).toThrow(/cursor "abc" is not one this query gave/);
  });
});

describe('rule-state pages', () => {
  const view: SessionRuleStateView = {
    phase: 'run',
    rules: {
      run: 1,
      turn: 1,
      runTurns: 1,
      ended: null,
      visible: ['a'],
      hidden: Array.from({ length: 300 }, (_, index) => ({
        tool: `tool_${index}`,
        reasons: [
          {
            code: 'prerequisite_not_met',
            message: `tool_${index} needs gate first`,
            rule: { kind: 'requires', id: `r${index}`, file: 'rules.yaml', index, path: `rules[${index}]` },
          },
        ],
      })),
      forbidden: [],
      counts: [],
      sequences: [],
      steps: [],
      completedInRun: [],
      completedInSession: [],
      lastCompleted: null,
      endCheck: { endsRun: true, reasons: [] },
    },
    pendingApprovals: [],
    runningCalls: [{ callId: 'c', toolName: 'a', interruptBehavior: 'cancel' }],
    unavailableTools: [{ toolName: 'b', reason: 'its MCP server is down' }],
    usage: {
      session: { modelCalls: 2, inputTokens: 900, outputTokens: 40, cachedInputTokens: 0, reasoningTokens: 0 },
      run: { modelCalls: 1, inputTokens: 450, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 },
    },
  };

  it('spread the lists over pages within the cap; merged, they are the whole view', () => {
    const pages: RuleStatePage[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = ruleStatePage(view, 's1', cursor, 16_384);
      expect(bytes(page)).toBeLessThanOrEqual(16_384);
      pages.push(page);
      if (page.next === null) break;
      cursor = page.next;
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(mergeRuleStatePages(pages)).toEqual(view);
  });

  it('page the tools shadow rules would hide like the hidden ones, and leave the list out when the view has none', () => {
    const shadowHidden = Array.from({ length: 200 }, (_, index) => ({
      tool: `shadowed_${index}`,
      reasons: [
        {
          code: 'forbidden_after' as const,
          message: `shadowed_${index} is not allowed after close_ticket`,
          rule: { kind: 'forbids_after' as const, id: `s${index}`, file: 'rules.yaml', index, path: `rules[${index}]` },
        },
      ],
    }));
    const shadowed: SessionRuleStateView = { ...view, rules: { ...view.rules, shadowHidden } };
    const pages: RuleStatePage[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = ruleStatePage(shadowed, 's1', cursor, 16_384);
      expect(bytes(page)).toBeLessThanOrEqual(16_384);
      expect(page.rules.shadowHidden).toBeDefined();
      pages.push(page);
      if (page.next === null) break;
      cursor = page.next;
    }
    // The first page holds none of them: they come after the other lists, each item once.
    expect(pages[0]?.rules.shadowHidden).toEqual([]);
    expect(pages.flatMap((page) => page.rules.shadowHidden ?? []).map(({ tool }) => tool)).toEqual(
      shadowHidden.map(({ tool }) => tool),
    );
    expect(mergeRuleStatePages(pages)).toEqual(shadowed);
    expect(ruleStatePage(view, 's1', undefined, 196_608).rules).not.toHaveProperty('shadowHidden');
  });

  it('is whole in one page when it fits, and refuses a cursor of another state', () => {
    expect(ruleStatePage(view, 's1', undefined, 196_608)).toEqual({ ...view, next: null });
    const { next } = ruleStatePage(view, 's1', undefined, 16_384);
    expect(() => ruleStatePage(view, 's2', next ?? undefined, 16_384)).toThrow(/the state changed since cursor/);
  });
});
