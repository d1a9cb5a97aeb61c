import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolrailPlugin } from '../../src/worker';
import { bundleSessionWorkflows } from '../../src/worker/bundle-session-workflows';
import { bundlerLogger } from '../../src/worker/session-bundle-options';
import { ShopCodec } from '../fixtures/shop/shop-codec';
import { historyFromJsonValue } from '../helpers/history-json';
import type { JsonHistory } from '../helpers/run-chain';
import { eventTypeNames } from '../helpers/run-chain';

const historiesDirectory = path.resolve(__dirname, 'histories/child-sessions');
const shopWorkflowsPath = path.resolve(__dirname, '../fixtures/shop/shop-workflows.ts');
const shopWorkflowInterceptors = path.resolve(__dirname, '../fixtures/shop/shop-workflow-interceptors.ts');
const dataConverter = { payloadCodecs: [new ShopCodec()] };

/** What each recorded history (`record-child-session-histories.ts` writes them) must show to stay representative. */
const shapes: Record<string, { includes: string[]; endsWith: string }> = {
  'order-with-agent': {
    includes: [
      'START_CHILD_WORKFLOW_EXECUTION_INITIATED',
      'WORKFLOW_EXECUTION_SIGNALED',
      'ACTIVITY_TASK_COMPLETED',
      'CHILD_WORKFLOW_EXECUTION_COMPLETED',
    ],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'order-with-agent-session': {
    includes: ['SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED', 'WORKFLOW_EXECUTION_UPDATE_COMPLETED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'cancelled-order': {
    includes: ['WORKFLOW_EXECUTION_CANCEL_REQUESTED', 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED'],
    endsWith: 'WORKFLOW_EXECUTION_CANCELED',
  },
  'cancelled-order-session': {
    includes: ['WORKFLOW_EXECUTION_SIGNALED', 'ACTIVITY_TASK_CANCEL_REQUESTED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
};

function readHistory(name: string): JsonHistory {
  return JSON.parse(readFileSync(path.join(historiesDirectory, `${name}.json`), 'utf8')) as JsonHistory;
}

describe('recorded histories of an order workflow and the session it ran as a child', () => {
  let shopBundle: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    // The shop's bundle as `bundleWorkflowCode` makes it with toolrail's plugin (a BundlerPlugin).
    shopBundle = await bundleWorkflowCode({
      workflowsPath: shopWorkflowsPath,
      workflowInterceptorModules: [shopWorkflowInterceptors],
      plugins: [toolrailPlugin()],
      logger: bundlerLogger,
    });
  });

  it('show the parent and the child each path took', () => {
    for (const [name, { includes, endsWith }] of Object.entries(shapes)) {
      const types = eventTypeNames(readHistory(name));
      expect(types, name).toEqual(expect.arrayContaining(includes));
      expect(types.at(-1), name).toBe(endsWith);
    }
    // The approved charge is the shop's own activity, scheduled once by the session on the payments task queue.
    const scheduled = readHistory('order-with-agent-session').events.flatMap((event) => {
      const attributes = (
        event as {
          activityTaskScheduledEventAttributes?: { activityType?: { name?: string }; taskQueue?: { name?: string } };
        }
      ).activityTaskScheduledEventAttributes;
      return attributes ? [`${attributes.activityType?.name}@${attributes.taskQueue?.name}`] : [];
    });
    expect(scheduled.filter((activity) => activity.startsWith('chargeCard@'))).toEqual(['chargeCard@replay-payments']);
  });

  it.each(Object.keys(shapes))("replays %s deterministically on the shop's bundle", async (name) => {
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: shopBundle, dataConverter, plugins: [toolrailPlugin()] },
        historyFromJsonValue(readHistory(name)),
      ),
    ).resolves.toBeUndefined();
  });

  it.each(['order-with-agent-session', 'cancelled-order-session'])(
    "replays %s on toolrail's own bundle too: a child session is any session",
    async (name) => {
      await expect(
        Worker.runReplayHistory(
          { workflowBundle: await bundleSessionWorkflows(), dataConverter },
          historyFromJsonValue(readHistory(name)),
        ),
      ).resolves.toBeUndefined();
    },
  );

  it("replays the parent through a replay worker that bundles the shop's workflowsPath with the plugin", async () => {
    await expect(
      Worker.runReplayHistory(
        {
          workflowsPath: shopWorkflowsPath,
          interceptors: { workflowModules: [shopWorkflowInterceptors] },
          dataConverter,
          plugins: [toolrailPlugin()],
        },
        historyFromJsonValue(readHistory('cancelled-order')),
      ),
    ).resolves.toBeUndefined();
  });
});
