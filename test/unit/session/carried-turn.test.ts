import { describe, expect, it } from 'vitest';
import type { PreparedCall, ToolErrorOutcome } from '../../../src/dispatch';
import { beginTurnInProgress, carriedTurn, resumeTurnInProgress } from '../../../src/session';
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
  it('packs its calls to a fraction of their size and resumes them whole, errors included', () => {
    const remaining = [...Array.from({ length: 100 }, (_, n) => readCall(n)), unknownTool];
    const turn = { ...beginTurnInProgress({ turnIndex: 7, remaining }), batches: 3 };
    const carried = carriedTurn(turn);
    expect(JSON.stringify(carried).length).toBeLessThan(JSON.stringify(remaining).length / 3);
    const resumed = resumeTurnInProgress(JSON.parse(JSON.stringify(carried)) as typeof carried);
    expect(resumed).toEqual(beginTurnInProgress({ turnIndex: 7, remaining }));
  });

  it('resumes calls that earlier versions carried whole', () => {
    const remaining = [
      readCall(1),
      { ...readCall(2), permission: 'ask' as const, interruptBehavior: 'cancel' as const },
    ];
    expect(resumeTurnInProgress({ turnIndex: 2, remaining })).toEqual(beginTurnInProgress({ turnIndex: 2, remaining }));
  });
});
