import { describe, expect, it } from 'vitest';
import { sessionSearchAttributes } from '../../../src/session';
import {
  toolrailBlockedCallsKey,
  toolrailLastToolKey,
  toolrailStatusKey,
} from '../../../src/session/search-attributes';

describe('the search attributes a session upserts', () => {
  const values = { status: 'thinking', lastTool: null, blockedCalls: 0, pendingApprovals: 0 } as const;

  it('sets every attribute on a workflow run’s first look', () => {
    expect(sessionSearchAttributes(values)).toHaveLength(4);
  });

  it('then only those that changed, and none when nothing did', () => {
    const changed = sessionSearchAttributes({ ...values, status: 'running_tools', lastTool: 'search' }, values);
    expect(changed).toEqual([
      { key: toolrailStatusKey, value: 'running_tools' },
      { key: toolrailLastToolKey, value: 'search' },
    ]);
    expect(sessionSearchAttributes({ ...values, blockedCalls: 2 }, values)).toEqual([
      { key: toolrailBlockedCallsKey, value: 2 },
    ]);
    expect(sessionSearchAttributes(values, values)).toEqual([]);
  });
});
