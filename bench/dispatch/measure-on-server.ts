import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { ToolrailClient } from '../../src/client/toolrail-client';
import { startDevServer } from '../../src/devserver/start-dev-server';
import { createScriptedModel } from '../../src/models';
import type { CompiledRuleSet } from '../../src/rules';
import { compileRuleSet, formatDiagnostic, importRules } from '../../src/rules';
import { bundlerLogger } from '../../src/worker/session-bundle-options';
import { createWorker } from '../../src/worker/create-worker';
import { fetchJsonHistory } from '../../test/helpers/run-chain';
import type { plainToolTurns } from '../plain-workflows';
import { createBenchTools } from './bench-tools';
import { dispatchScenarios, dispatchVariants, scenarioModelNames, scenarioScript } from './bench-scenarios';
import type { DispatchScenario, DispatchVariant } from './bench-scenarios';
import { historyTimeline } from './history-timeline';
import type { HistoryTimeline } from './history-timeline';
import { createPlainActivities } from './plain-activities';

/** The median run of one variant of one scenario, and the timeline of its history. */
export interface Measured {
  medianMs: number;
  timeline: HistoryTimeline;
}

/** Results by `${scenario.key}/${variant}`. */
export type DispatchResults = Map<string, Measured>;

/**
 * Starts a dev server with `dynamicConfig`, a toolrail worker and a plain worker on it, and runs every
 * scenario in every variant: one warm-up run each, then `iterations` rounds in which the variants
 * take turns (so drift in the machine's load hits them alike). Keeps each variant's median run.
 */
export async function measureOnServer({
  dynamicConfig,
  iterations,
}: {
  dynamicConfig: Record<string, string | number | boolean>;
  iterations: number;
}): Promise<DispatchResults> {
  const server = await startDevServer({ ui: false, dynamicConfig });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const workers: Worker[] = [];
  let running: Promise<unknown> = Promise.resolve();
  try {
    const client = new Client({ connection, namespace: server.namespace });
    const toolrail = new ToolrailClient({ client, taskQueue: 'bench-toolrail' });
    workers.push(
      await createWorker({
        connection: nativeConnection,
        namespace: server.namespace,
        taskQueue: 'bench-toolrail',
        tools: createBenchTools(),
        scriptedModels: Object.fromEntries(
          dispatchScenarios.flatMap((scenario) => [
            [scenario.key, createScriptedModel(scenarioScript(scenario, { local: false }))],
            [`${scenario.key}-local`, createScriptedModel(scenarioScript(scenario, { local: true }))],
          ]),
        ),
      }),
      await Worker.create({
        connection: nativeConnection,
        namespace: server.namespace,
        taskQueue: 'bench-plain',
        workflowBundle: await bundleWorkflowCode({
          workflowsPath: require.resolve('../plain-workflows'),
          logger: bundlerLogger,
        }),
        activities: createPlainActivities(),
      }),
    );
    running = Promise.all(workers.map((worker) => worker.run()));
    const rules = emptyRules();
    let sequence = 0;

    const runOnce = async (
      scenario: DispatchScenario,
      variant: DispatchVariant,
    ): Promise<{ ms: number; workflowId: string }> => {
      const workflowId = `bench-${scenario.key}-${variant.replace(/\W+/g, '-')}-${(sequence += 1)}`;
      const started = performance.now();
      if (variant === 'plain' || variant === 'plain+model') {
        await client.workflow.execute<typeof plainToolTurns>('plainToolTurns', {
          taskQueue: 'bench-plain',
          workflowId,
          args: [
            {
              turns: scenario.turns,
              calls: scenario.calls,
              delayMs: scenario.delayMs,
              withModelCalls: variant === 'plain+model',
            },
          ],
        });
      } else {
        const session = await toolrail.startSession({
          sessionId: workflowId,
          rules,
          model: { provider: 'scripted', model: scenarioModelNames(scenario, variant) },
          firstMessage: 'go',
          interactive: false,
          limits: { closeWhenIdle: true },
        });
        await session.result();
      }
      return { ms: performance.now() - started, workflowId };
    };

    const results: DispatchResults = new Map();
    for (const scenario of dispatchScenarios) {
      for (const variant of dispatchVariants) await runOnce(scenario, variant);
      const runs = new Map<DispatchVariant, { ms: number; workflowId: string }[]>(
        dispatchVariants.map((variant) => [variant, []]),
      );
      for (let iteration = 0; iteration < iterations; iteration++) {
        for (const variant of dispatchVariants) runs.get(variant)?.push(await runOnce(scenario, variant));
      }
      for (const variant of dispatchVariants) {
        const sorted = [...(runs.get(variant) ?? [])].sort((a, b) => a.ms - b.ms);
        const median = sorted[Math.floor(sorted.length / 2)];
        if (median === undefined) continue;
        const timeline = historyTimeline(await fetchJsonHistory(client, median.workflowId));
        results.set(`${scenario.key}/${variant}`, { medianMs: median.ms, timeline });
      }
    }
    return results;
  } finally {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
    await server.stop();
  }
}

/** A rule set with no rules (every tool allowed), for the benchmarks. */
export function emptyRules(): CompiledRuleSet {
  const imported = importRules({ file: 'bench.yaml', value: { toolrail: 1, rules: [] } });
  if (!imported.ok) throw new Error(imported.errors.map(formatDiagnostic).join('\n'));
  const compiled = compileRuleSet({ documents: [imported.document] });
  if (!compiled.ok) throw new Error(compiled.errors.map(formatDiagnostic).join('\n'));
  return compiled.rules;
}
