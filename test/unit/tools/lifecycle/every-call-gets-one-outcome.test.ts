import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionCalls } from '../../../../src/dispatch/partition-calls';
import type { PreparedCall } from '../../../../src/dispatch/prepared-call';
import { refusePreparedCall } from '../../../../src/dispatch/refuse-prepared-call';
import type { ToolOutcome } from '../../../../src/dispatch/tool-outcome';
import { executePreparedCall } from '../../../../src/tools/lifecycle/execute-prepared-call';
import { prepareToolCall } from '../../../../src/tools/lifecycle/prepare-tool-call';
import { sampleRegistry } from './sample-tools';

const proposedCall = fc.oneof(
  fc.record({
    name: fc.constantFrom('search_files', 'grep_files'),
    args: fc.record({ pattern: fc.string(), directory: fc.constantFrom('/', 'rel') }),
  }),
  fc.record({
    name: fc.constant('shell'),
    args: fc.record({ command: fc.constantFrom('ls a', 'rm a', 'ls $(x)', 'touch a') }),
  }),
  fc.record({ name: fc.constant('write_file'), args: fc.anything() }),
  fc.record({ name: fc.constantFrom('__proto__', 'constructor', 'missing'), args: fc.constant({}) }),
  fc.record({
    name: fc.constant('search_files'),
    args: fc.constantFrom('', '{', '[]', '{"pattern":"a","directory":"/"}'),
  }),
);

describe('the lifecycle as the workflow drives it', () => {
  it('gives every proposed call exactly one outcome, in call order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(proposedCall, { maxLength: 12 }), fc.boolean(), async (calls, interactive) => {
        const registry = sampleRegistry();
        const context = { sessionId: 'property', interactive };
        const proposed = calls.map((call, index) => ({ id: `c${index}`, ...call }));
        const prepared = await Promise.all(proposed.map((call) => prepareToolCall({ registry, call, context })));
        const outcomes = new Map<string, ToolOutcome>();
        for (const entry of prepared) if (entry.type === 'tool-error') outcomes.set(entry.callId, entry);
        const runnable = prepared.filter((entry): entry is PreparedCall => entry.type === 'prepared-call');
        for (const batch of partitionCalls(runnable, { maxConcurrency: 3 })) {
          const results = await Promise.all(
            batch.calls.map(async (call) =>
              call.permission === 'deny'
                ? refusePreparedCall(call, { reason: 'permission-denied' })
                : await executePreparedCall({
                    registry,
                    prepared: call,
                    context,
                    approved: true,
                  }),
            ),
          );
          for (const outcome of results) {
            expect(outcomes.has(outcome.callId)).toBe(false);
            outcomes.set(outcome.callId, outcome);
          }
        }
        const ordered = proposed.map((call) => outcomes.get(call.id));
        expect(ordered.every((outcome) => outcome !== undefined)).toBe(true);
        expect(outcomes.size).toBe(proposed.length);
        for (const outcome of ordered) expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
      }),
      { numRuns: 60 },
    );
  });
});
