import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeRuleState } from '../../../src/rules';
import type { CompiledRuleSet } from '../../../src/rules';
import { createScriptedModel } from '../../../src/models';
import type { ScriptedModel } from '../../../src/models';
import { startDevServer } from '../../../src/devserver/start-dev-server';
import type { DevServer } from '../../../src/devserver/start-dev-server';
import { maxCarriedTranscriptEntries } from '../../../src/session/session-input';
import type { SessionInput, SessionLimits } from '../../../src/session/session-input';
import { SessionHandle } from '../../../src/client/session-handle';
import { ruleStateQuery, transcriptQuery } from '../../../src/session/session-messages';
import type { TranscriptEntry } from '../../../src/session/session-views';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { eventTypeName, fetchRunChain, startInput } from '../../helpers/run-chain';
import type { WorkflowRun } from '../../helpers/run-chain';
import { withSessionWorker } from '../../helpers/session-worker';
import {
  compileLongSessionRules,
  createLongSessionTools,
  longSessionCatalog,
  longSessionMessage,
  longSessionScript,
  longSessionTurns,
  runLongSessionOnEngine,
} from '../../fixtures/long-session-scenario';
import type { EngineRun } from '../../fixtures/long-session-scenario';

/** History limits of this file's own server: continue-as-new is suggested within a few turns. */
const historyLimits = { suggestContinueAsNew: 60, warn: 100, error: 150 };

describe('continue-as-new of a long session', () => {
  const rules = compileLongSessionRules();
  const catalog = longSessionCatalog();
  const engine = runLongSessionOnEngine(rules, catalog);

  describe('on a server with lowered history limits', () => {
    let server: DevServer;
    let connections: HarnessConnections;
    beforeAll(async () => {
      const cliPath = inject('temporalCliPath');
      server = await startDevServer({
        ui: false,
        dynamicConfig: {
          'limit.historyCount.suggestContinueAsNew': historyLimits.suggestContinueAsNew,
          'limit.historyCount.warn': historyLimits.warn,
          'limit.historyCount.error': historyLimits.error,
        },
        ...(cliPath ? { cli: { kind: 'executable', path: cliPath, source: 'TEMPORAL_CLI_PATH' } } : {}),
      });
      connections = await connectTo(server);
    });
    afterAll(async () => {
      await connections?.close();
      await server?.stop();
    });

    it('continues as new when the server suggests it, and the rule state is unchanged at every boundary', async () => {
      await withLongSession(connections, {}, async ({ runs, model }) => {
        expect(runs.length).toBeGreaterThan(1);
        // Each run that continued as new had been told to by the server.
        expect(runs.map(serverSuggestedContinueAsNew)).toEqual(runs.map((_, index) => index < runs.length - 1));
        const boundaries = await checkBoundaries({ connections, runs, engine, rules, catalog });
        // Every run stayed under the hard limit, though the session as a whole went past it.
        for (const run of runs) expect(run.history.events.length).toBeLessThan(historyLimits.error);
        expect(runs.reduce((sum, run) => sum + run.history.events.length, 0)).toBeGreaterThan(historyLimits.error);
        // At least one boundary falls after `archive` and before `finish`: note forbidden, sequence halfway.
        expect(boundaries.some((turns) => turns >= 7 && turns < longSessionTurns.length - 1)).toBe(true);
        await checkWholeSession({ connections, runs, engine, model });
      });
    });
  });

  describe('on the harness server', () => {
    let connections: HarnessConnections;
    beforeAll(async () => {
      connections = await connectToHarness();
    });
    afterAll(async () => {
      await connections?.close();
    });

    it('continues as new every continueAsNewAfterTurns turns, and the rule state is unchanged at every boundary', async () => {
      await withLongSession(connections, { continueAsNewAfterTurns: 4 }, async ({ runs, model }) => {
        const boundaries = await checkBoundaries({ connections, runs, engine, rules, catalog });
        expect(boundaries).toEqual([4, 8, 12, 16]);
        expect(runs.some(serverSuggestedContinueAsNew)).toBe(false);
        // After 8 turns: archive forbade note, three of four lookups are used, the sequence is at step 8 of 14.
        const atEight = engine.view(8);
        expect(atEight.forbidden.map(({ tool }) => tool)).toEqual(['note']);
        expect(atEight.counts).toEqual([
          expect.objectContaining({ tool: 'lookup', scope: 'session', count: 3, limit: 4 }),
        ]);
        expect(atEight.sequences).toEqual([
          expect.objectContaining({ position: 7, length: 14, expected: ['lookup', 'note', 'audit'] }),
        ]);
        await checkWholeSession({ connections, runs, engine, model });
      });
    });
  });
});

/** What a finished long session left behind. */
interface FinishedLongSession {
  runs: WorkflowRun[];
  model: ScriptedModel;
}

/**
 * Runs the scripted long session to its end on a worker of its own, then calls `check` while that
 * worker still runs (queries of closed runs are answered by a worker replaying them).
 */
async function withLongSession(
  connections: HarnessConnections,
  limits: SessionLimits,
  check: (finished: FinishedLongSession) => Promise<void>,
): Promise<void> {
  const model = createScriptedModel(longSessionScript());
  await withSessionWorker(
    { connections, tools: createLongSessionTools(), scriptedModels: { cases: model } },
    async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('long-session'),
        rules: compileLongSessionRules(),
        model: { provider: 'scripted', model: 'cases' },
        firstMessage: longSessionMessage,
        limits: { closeWhenIdle: true, ...limits },
      });
      const final = await session.result();
      expect(final.lastRunEnd).toBe('answered');
      const runs = await fetchRunChain(connections.client, session.sessionId);
      expect(final.counters).toEqual({
        turns: longSessionTurns.length,
        runs: 1,
        toolCalls: 14,
        blockedCalls: 4,
        continuedAsNew: runs.length - 1,
      });
      await check({ runs, model });
    },
  );
}

/**
 * Checks every continue-as-new boundary of the chain: the old run ended with
 * `WORKFLOW_EXECUTION_CONTINUED_AS_NEW`; the state the new run started from is the uninterrupted
 * engine's state after the same number of turns; and the old run's `ruleState` query (answered by a
 * worker replaying the closed run) shows exactly that state. Returns the turn count at each boundary.
 */
async function checkBoundaries({
  connections,
  runs,
  engine,
  rules,
  catalog,
}: {
  connections: HarnessConnections;
  runs: WorkflowRun[];
  engine: EngineRun;
  rules: CompiledRuleSet;
  catalog: readonly string[];
}): Promise<number[]> {
  const boundaries: number[] = [];
  for (const [index, run] of runs.entries()) {
    const lastEvent = run.history.events[run.history.events.length - 1];
    const expectedEnd =
      index < runs.length - 1 ? 'WORKFLOW_EXECUTION_CONTINUED_AS_NEW' : 'WORKFLOW_EXECUTION_COMPLETED';
    expect(lastEvent && eventTypeName(lastEvent)).toBe(expectedEnd);
    if (index === 0) {
      expect(startInput<SessionInput>(run.history).carried).toBeUndefined();
      continue;
    }
    const carried = startInput<SessionInput>(run.history).carried;
    if (carried === undefined) throw new Error(`run ${index} started without carried state`);
    const turns = carried.counters.turns;
    boundaries.push(turns);
    expect(carried.counters.continuedAsNew).toBe(index);
    expect(carried.runInProgress).toBe(true);
    expect(carried.queuedMessages).toEqual([]);
    // The conversation so far, by reference: the user message, then per turn the call and its (possibly refusing) result.
    expect(carried.log.count).toBe(1 + 2 * turns);
    expect(carried.log.tail.length).toBeLessThan(32);
    expect(carried.ruleState).toEqual(engine.states[turns]);

    const previous = runs[index - 1];
    if (previous === undefined) throw new Error('unreachable');
    const before = await connections.client.workflow
      .getHandle(previous.workflowId, previous.runId)
      .query(ruleStateQuery);
    expect(before.rules).toEqual(engine.view(turns));
    expect(describeRuleState(rules, carried.ruleState, catalog)).toEqual(before.rules);
  }
  return boundaries;
}

/** The whole session: every turn offered what the engine left visible, and every verdict matches the engine's. */
async function checkWholeSession({
  connections,
  runs,
  engine,
  model,
}: {
  connections: HarnessConnections;
  runs: WorkflowRun[];
  engine: EngineRun;
  model: ScriptedModel;
}): Promise<void> {
  expect(model.requests.map((request) => request.tools.map((tool) => tool.name).sort())).toEqual(
    engine.visible.map((names) => [...names].sort()),
  );
  // Each run's transcript starts with the last entries of the run before it (continue-as-new carries
  // them), and the session's transcript, read across the runs, is the whole session in order.
  const transcripts: TranscriptEntry[][] = [];
  for (const run of runs) {
    const page = await connections.client.workflow.getHandle(run.workflowId, run.runId).query(transcriptQuery);
    expect(page.more).toBe(false);
    transcripts.push(page.entries);
  }
  transcripts.forEach((transcript, index) => {
    const next = transcripts[index + 1];
    if (next === undefined) return;
    const carried = transcript.slice(-maxCarriedTranscriptEntries);
    expect(next.slice(0, carried.length)).toEqual(carried);
  });
  const last = runs[runs.length - 1];
  if (last === undefined) throw new Error('no runs');
  const whole = await new SessionHandle(connections.client.workflow.getHandle(last.workflowId)).transcript();
  const runsWithoutCarried = transcripts.map((transcript, index) =>
    index === 0
      ? transcript
      : transcript.slice(Math.min(maxCarriedTranscriptEntries, transcripts[index - 1]?.length ?? 0)),
  );
  expect(whole).toEqual(runsWithoutCarried.flat());
  expect(whole.length).toBeGreaterThan(transcripts.at(-1)?.length ?? 0);
  const verdicts = whole.flatMap((entry) =>
    entry.kind === 'verdict'
      ? [{ turn: entry.turn, tool: entry.tool, verdict: entry.verdict, codes: entry.reasons.map(({ code }) => code) }]
      : [],
  );
  expect(verdicts).toEqual(engine.verdicts);
  const final = await connections.client.workflow.getHandle(last.workflowId, last.runId).query(ruleStateQuery);
  expect(final.rules).toEqual(engine.view(longSessionTurns.length));
  expect(final.runningCalls).toEqual([]);
  expect(final.pendingApprovals).toEqual([]);
}

/** Whether a workflow task of the run started with the server's `suggestContinueAsNew`. */
function serverSuggestedContinueAsNew(run: WorkflowRun): boolean {
  return run.history.events.some(
    (event) =>
      (event['workflowTaskStartedEventAttributes'] as { suggestContinueAsNew?: boolean } | undefined)
        ?.suggestContinueAsNew === true,
  );
}

async function connectTo(server: DevServer): Promise<HarnessConnections> {
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  return {
    client: new Client({ connection, namespace: server.namespace }),
    nativeConnection,
    namespace: server.namespace,
    close: async () => {
      await nativeConnection.close();
      await connection.close();
    },
  };
}
