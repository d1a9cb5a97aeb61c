import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/models';
import { createLocalActivityTools, localActivityScript } from '../../fixtures/local-activity-tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { eventTypeNames, fetchJsonHistory } from '../../helpers/run-chain';
import type { JsonHistoryEvent } from '../../helpers/run-chain';
import { withSessionWorker } from '../../helpers/session-worker';

describe('tools that opt in to local activities', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections?.close();
  });

  it('run read-only calls as local activities and destructive calls as normal, single-attempt activities', async () => {
    const model = createScriptedModel(localActivityScript());
    await withSessionWorker(
      { connections, tools: createLocalActivityTools(), scriptedModels: { local: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('local-activity-tools'),
          rules: compileRules({ toolrail: 1, rules: [] }),
          model: { provider: 'scripted', model: 'local' },
          firstMessage: 'Read a and b, then write a.',
          limits: { closeWhenIdle: true },
        });
        const final = await session.result();
        expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 3 } });
        const results = (await session.transcript()).flatMap((entry) =>
          entry.kind === 'tool' ? [{ tool: entry.tool, isError: entry.isError }] : [],
        );
        expect(results).toEqual([
          { tool: 'read_fast', isError: false },
          { tool: 'read_fast', isError: false },
          { tool: 'write_record', isError: false },
        ]);

        const { events } = await fetchJsonHistory(connections.client, session.sessionId);
        // The reads left one marker each (next to the catalog's), and no activity task.
        const localTools = events.filter((event) => markerActivityType(event) === 'executeTool');
        expect(localTools).toHaveLength(2);
        const scheduledTools = events.filter((event) => scheduledActivityType(event) === 'executeTool');
        expect(scheduledTools).toHaveLength(1);
        expect(scheduledTools[0]?.['activityTaskScheduledEventAttributes']).toMatchObject({
          retryPolicy: { maximumAttempts: 1 },
        });
        expect(eventTypeNames({ events })).not.toContain('ACTIVITY_TASK_FAILED');
      },
    );
  });
});

function scheduledActivityType(event: JsonHistoryEvent): string | undefined {
  const attributes = event['activityTaskScheduledEventAttributes'] as { activityType?: { name?: string } } | undefined;
  return attributes?.activityType?.name;
}

/** The activity type a local-activity marker records (its `data` detail is JSON with `activity_type`). */
function markerActivityType(event: JsonHistoryEvent): string | undefined {
  const attributes = event['markerRecordedEventAttributes'] as
    { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> } | undefined;
  if (attributes?.markerName !== 'core_local_activity') return undefined;
  const data = attributes.details?.['data']?.payloads?.[0]?.data;
  if (data === undefined) return undefined;
  const decoded = JSON.parse(Buffer.from(data, 'base64').toString()) as { activity_type?: string };
  return decoded.activity_type;
}
