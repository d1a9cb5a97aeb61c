import { describe, expect, it } from 'vitest';
import { changedSearchAttributes, emptyUsageTotals, sessionSearchAttributes } from '../../../src/session';
import type { SessionSearchSource } from '../../../src/session';
import {
  toolrailBlockedCallsKey,
  toolrailLastToolKey,
  toolrailStatusKey,
} from '../../../src/session/search-attributes';

describe('the search attributes a session upserts', () => {
  const session = (more: Partial<SessionSearchSource> = {}): SessionSearchSource => ({
    status: 'idle',
    lastTool: null,
    counters: { turns: 0, runs: 0, toolCalls: 0, blockedCalls: 0, continuedAsNew: 0 },
    pendingApprovals: [],
    usage: { run: emptyUsageTotals, session: emptyUsageTotals },
    ...more,
  });

  it('sets every attribute on a workflow run’s first look', () => {
    const shown = new Map<string, unknown>();
    expect(changedSearchAttributes(sessionSearchAttributes(session()), shown)).toHaveLength(5);
  });

  it('then only those that changed, and none when nothing did', () => {
    const shown = new Map<string, unknown>();
    changedSearchAttributes(sessionSearchAttributes(session()), shown);
    const moved = sessionSearchAttributes(session({ status: 'running', lastTool: 'search' }));
    expect(changedSearchAttributes(moved, shown)).toEqual([
      { key: toolrailStatusKey, value: 'running' },
      { key: toolrailLastToolKey, value: 'search' },
    ]);
    const blocked = session({ status: 'running', lastTool: 'search' });
    blocked.counters.blockedCalls = 2;
    expect(changedSearchAttributes(sessionSearchAttributes(blocked), shown)).toEqual([
      { key: toolrailBlockedCallsKey, value: 2 },
    ]);
    expect(changedSearchAttributes(sessionSearchAttributes(blocked), shown)).toEqual([]);
  });
});
