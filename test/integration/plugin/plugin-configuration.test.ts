import { SearchAttributeType } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import { Client } from '@temporalio/client';
import { SimplePlugin } from '@temporalio/plugin';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import { checkSessionInput, toolrailSearchAttributes, newSessionSearchAttributes } from '../../../src/session';
import type { SessionInput } from '../../../src/session';
import { toolrailPlugin, ToolrailPluginError } from '../../../src/worker';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { testContentStore } from '../../helpers/session-worker';
import { createShopAgentTools } from '../../fixtures/shop/shop-agent';

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<ToolrailPluginError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!ToolrailPluginError.isInstance(error)) throw new Error(`expected a ToolrailPluginError, got ${String(error)}`);
  return error;
}

describe("toolrail's plugin, configured wrongly", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  const workerOptions = () => ({
    connection: connections.nativeConnection,
    namespace: connections.namespace,
    taskQueue: uniqueName('misconfigured'),
  });

  it('refuses a worker that has the plugin twice, also when one comes from its connection', async () => {
    const plugin = toolrailPlugin({ contentStore: testContentStore() });
    const twice = await rejection(Worker.create({ ...workerOptions(), plugins: [plugin, toolrailPlugin()] }));
    expect(twice.code).toBe('PLUGIN_CONFIGURED_TWICE');
    expect(twice.message).toMatch(/configured 2 times on this worker/);
    const connection = await NativeConnection.connect({ address: inject('temporalAddress'), plugins: [plugin] });
    try {
      const both = await rejection(Worker.create({ ...workerOptions(), connection, plugins: [plugin] }));
      expect(both.code).toBe('PLUGIN_CONFIGURED_TWICE');
    } finally {
      await connection.close();
    }
    expect(() => new Client({ connection: connections.client.connection, plugins: [plugin, plugin] })).toThrow(
      /configured 2 times on this client/,
    );
  });

  it("refuses a worker whose own activities have the names of toolrail's, or of its tools", async () => {
    const plugin = toolrailPlugin({ tools: createShopAgentTools('payments'), contentStore: testContentStore() });
    const activityClash = await rejection(
      Worker.create({ ...workerOptions(), activities: { callModel: () => Promise.resolve() }, plugins: [plugin] }),
    );
    expect(activityClash.code).toBe('ACTIVITY_NAME_CLASH');
    expect(activityClash.message).toMatch(/already has activities named "callModel"/);
    const toolClash = await rejection(
      Worker.create({ ...workerOptions(), activities: { charge_card: () => Promise.resolve() }, plugins: [plugin] }),
    );
    expect(toolClash.code).toBe('TOOL_NAME_CLASH');
    expect(toolClash.message).toMatch(/the tools "charge_card" have the names of activities of this worker/);
  });

  it("refuses to run a worker on which a later plugin replaced one of toolrail's activities", async () => {
    const other = new SimplePlugin({
      name: 'other',
      activities: { executeTool: () => Promise.resolve('not toolrail') },
    });
    const worker = await Worker.create({
      ...workerOptions(),
      workflowBundle: await bundleSessionWorkflows(),
      plugins: [toolrailPlugin({ contentStore: testContentStore() }), other],
    });
    const replaced = await rejection(worker.run());
    expect(replaced.code).toBe('ACTIVITY_NAME_CLASH');
    expect(replaced.message).toMatch(/another activity replaced toolrail's "executeTool"/);
  });
});

describe("a namespace without one of toolrail's search attributes", () => {
  let connections: HarnessConnections;
  let namespace: string;
  let client: Client;
  beforeAll(async () => {
    connections = await connectToHarness();
    namespace = uniqueName('no-tokens');
    await connections.client.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    // What a client of the version before registered: every attribute but ToolrailTotalTokens.
    const earlier = toolrailSearchAttributes.filter(({ name }) => name !== 'ToolrailTotalTokens');
    await pollUntil(
      () =>
        connections.client.connection.operatorService
          .addSearchAttributes({
            namespace,
            searchAttributes: Object.fromEntries(earlier.map(({ name, type }) => [name, indexedType(type)])),
          })
          .then(
            () => true,
            () => false,
          ),
      (added) => added,
    );
    client = new Client({ connection: connections.client.connection, namespace });
  });
  afterAll(async () => {
    await connections.close();
  });

  it('keeps a worker from starting, naming the attribute and the command that registers it; a running session waits, then goes on', async () => {
    const taskQueue = uniqueName('sessions');
    const checked = checkSessionInput({
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { provider: 'scripted', model: 'answer' },
      firstMessage: 'Hello?',
      interactive: false,
    });
    if (!checked.ok) throw new Error('the input is bad');
    // A session started by a client of the version before (no ToolrailTotalTokens at its start).
    const sessionId = uniqueName('waiting');
    const started = await pollUntil(
      () =>
        client.workflow
          .start('agentSession', {
            taskQueue,
            workflowId: sessionId,
            args: [checked.input satisfies SessionInput],
            typedSearchAttributes: newSessionSearchAttributes({ running: true }).filter(
              ({ key }) => key.name !== 'ToolrailTotalTokens',
            ),
          })
          .then(
            (handle) => handle,
            () => undefined,
          ),
      (handle) => handle !== undefined,
    );
    if (started === undefined) throw new Error('the session did not start');
    const session = started;
    const plugin = toolrailPlugin({
      scriptedModels: { answer: createScriptedModel([textResponse('Hi.')]) },
      contentStore: testContentStore(),
    });
    const options = { connection: connections.nativeConnection, namespace, taskQueue, plugins: [plugin] };

    const refused = await rejection(Worker.create(options));
    expect(refused.code).toBe('SEARCH_ATTRIBUTES_MISSING');
    expect(refused.message).toContain(
      `namespace "${namespace}" lacks toolrail's search attributes ToolrailTotalTokens (Int)`,
    );
    expect(refused.message).toContain(
      `temporal operator search-attribute create --namespace ${namespace} --name ToolrailTotalTokens --type Int`,
    );
    // `warn` starts the worker anyway (and says so once in its log); here on a task queue of its own.
    const warned = await Worker.create({
      ...options,
      taskQueue: uniqueName('warned'),
      plugins: [toolrailPlugin({ searchAttributes: 'warn', contentStore: testContentStore() })],
    });
    await warned.runUntil(Promise.resolve());

    // No worker took the session: it waits, and none of its workflow tasks failed.
    const waiting = await session.fetchHistory();
    expect(waiting.events?.map((event) => event.eventType)).not.toContainEqual(
      expect.stringMatching(/WORKFLOW_TASK_FAILED/),
    );
    expect((await session.describe()).status.name).toBe('RUNNING');

    await connections.client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: { ToolrailTotalTokens: indexedType(SearchAttributeType.INT) },
    });
    const worker = await Worker.create(options);
    const result: unknown = await worker.runUntil(session.result());
    expect(result).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    const events = (await session.fetchHistory()).events?.map((event) => String(event.eventType)) ?? [];
    expect(events.filter((type) => type.includes('WORKFLOW_TASK_FAILED'))).toEqual([]);
  });
});

/** The server's `IndexedValueType` number of a search attribute type. */
function indexedType(type: SearchAttributeType): number {
  return ['TEXT', 'KEYWORD', 'INT', 'DOUBLE', 'BOOL', 'DATETIME', 'KEYWORD_LIST'].indexOf(type) + 1;
}
