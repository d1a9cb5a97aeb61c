import { describe, expect, it } from 'vitest';
import type { PreparedCall, ToolErrorOutcome } from '../../../src/dispatch';
import { beginTurnInProgress, carriedTurn } from '../../../src/session';
import { readOnlyCall } from '../../helpers/read-only-call';

/** Call `n` of `read_page`, as `prepareToolCall` builds it. */
function readCall(n: number): PreparedCall {
  return readOnlyCall({ callId: `c${n}`, args: { page: n }, input: { page: n } });
}

const unknownTool: ToolErrorOutcome = {
  type: 'tool-error',
  callId: 'c9',
  toolName: 'read_pages',
  code: 'UNKNOWN_TOOL',
  message: 'No tool "read_pages".',
};

describe('a turn in progress as continue-as-new carries it', () => {
  it('carries its calls still to come as plain JSON, and the next run resumes them, errors included', () => {
    const remaining = [...Array.from({ length: 100 }, (_, n) => readCall(n)), unknownTool];
    const turn = { ...beginTurnInProgress({ turnIndex: 7, remaining }), batches: 3 };
    const carried = JSON.parse(JSON.stringify(carriedTurn(turn))) as ReturnType<typeof carriedTurn>;
    expect(carried).toEqual({ turnIndex: 7, remaining });
    expect(beginTurnInProgress(carried)).toEqual(beginTurnInProgress({ turnIndex: 7, remaining }));
  });

  it('leaves out the calls that settled before the boundary', () => {
    const remaining = [readCall(1), readCall(2)];
    const turn = beginTurnInProgress({ turnIndex: 2, remaining });
    const settled = { ...turn, remaining: turn.remaining.slice(1), settled: [] };
    expect(carriedTurn(settled).remaining).toEqual([readCall(2)]);
  });
});
