import { describe, expect, it } from 'vitest';
import { renderCurrentDetails } from '../../../src/session/render-current-details';

const view = {
  counters: { turns: 3, runs: 1, toolCalls: 2, blockedCalls: 0, continuedAsNew: 0 },
  pendingApprovals: [],
  lastRunEnd: null,
  runInProgress: true,
  narrowed: () => ({ visible: ['search'], hidden: [] }),
};

describe('the current details of a session', () => {
  it('say why the session waits for its content store, and that it goes on once the store is back', () => {
    const details = renderCurrentDetails({
      ...view,
      status: 'waiting_for_store',
      storeProblem: {
        code: 'STORE_UNAVAILABLE',
        message: 'Content store postgres:toolrail@db:5432/toolrail is unavailable (connect ECONNREFUSED).',
        store: 'postgres:toolrail@db:5432/toolrail',
        since: 0,
        retries: 0,
      },
    });
    expect(details).toContain('status `waiting_for_store`');
    expect(details).toContain('**Waiting for the content store** (`STORE_UNAVAILABLE`)');
    expect(details).toContain('connect ECONNREFUSED');
    expect(details).toContain('messages sent meanwhile are kept');
  });

  it('say nothing of the store while it works', () => {
    expect(renderCurrentDetails({ ...view, status: 'thinking' })).not.toContain('content store');
  });

  it('list the tools that cannot run now once per reason, six tools each, the reason on one line and cut', () => {
    const reason = `the MCP server "files" is not connected: it exited with code 1; the last lines of its stderr:\n  Error: ${'x'.repeat(400)}`;
    const unavailableTools = [
      ...Array.from({ length: 8 }, (_, index) => ({ toolName: `files_tool_${index}`, reason })),
      { toolName: 'echo', reason: 'the MCP server "everything" is reconnecting' },
    ];
    const details = renderCurrentDetails({ ...view, status: 'idle', runInProgress: false, unavailableTools });
    const lines = details.split('\n\n').filter((paragraph) => paragraph.startsWith('**Unavailable now'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\*\*Unavailable now \(8 tools\)\*\*: `files_tool_0`, .*`files_tool_5`, and 2 more: the MCP server "files" is not connected: it exited with code 1; the last lines of its stderr: Error: x+…$/,
    );
    expect(lines[0]).not.toContain('files_tool_6');
    expect(lines[0]?.split('and 2 more: ')[1]).toHaveLength(300);
    expect(lines[1]).toBe('**Unavailable now (1 tool)**: `echo`: the MCP server "everything" is reconnecting');
  });

  it('list the visible tools shadow rules would hide, apart from the hidden ones, with the rule of each', () => {
    const reason = (tool: string) => ({
      code: 'forbidden_after' as const,
      message: `${tool} is not allowed after close_case.`,
      rule: { kind: 'forbids_after' as const, id: 'no-refund-after-close', file: 'r.yaml', index: 1, path: 'rules[1]' },
    });
    const shadowHidden = Array.from({ length: 7 }, (_, index) => ({
      tool: `tool_${index}`,
      reasons: [reason(`tool_${index}`)],
    }));
    const details = renderCurrentDetails({
      ...view,
      status: 'thinking',
      narrowed: () => ({ visible: ['search', ...shadowHidden.map(({ tool }) => tool)], hidden: [], shadowHidden }),
    });
    const [line] = details.split('\n\n').filter((paragraph) => paragraph.startsWith('**Shadow'));
    expect(line).toMatch(
      /^\*\*Shadow rules would hide \(7; not enforced\)\*\*: `tool_0` \(forbidden_after, rule `no-refund-after-close`\), .*`tool_5` .*, and 1 more$/,
    );
    expect(details).not.toContain('**Hidden tools');
    expect(renderCurrentDetails({ ...view, status: 'thinking' })).not.toContain('Shadow');
  });

  it('list no unavailable tools once the session has ended', () => {
    const unavailableTools = [{ toolName: 'echo', reason: 'MCP server "everything" is down' }];
    expect(renderCurrentDetails({ ...view, status: 'completed', unavailableTools })).not.toContain('Unavailable');
  });
});
