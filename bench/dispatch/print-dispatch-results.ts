import { dispatchScenarios, dispatchVariants } from './bench-scenarios';
import type { DispatchScenario, DispatchVariant } from './bench-scenarios';
import type { DispatchResults, Measured } from './measure-on-server';

/** Prints the wall-time table (ratios, events per call) and the per-turn time split table. */
export function printDispatchResults(results: DispatchResults, iterations: number): void {
  const get = (scenario: DispatchScenario, variant: DispatchVariant): Measured | undefined =>
    results.get(`${scenario.key}/${variant}`);
  process.stdout.write(
    `  wall time, start to result as the client sees it (median of ${iterations}); history events per tool call\n`,
  );
  const header = [
    'scenario',
    ...dispatchVariants,
    'toolrail ÷ plain',
    'local ÷ plain',
    'toolrail ÷ plain+model',
    'events/call',
    '',
    '',
    '',
  ];
  const subHeader = ['', '', '', '', '', '', '', '', ...dispatchVariants];
  const rows = dispatchScenarios.map((scenario) => {
    const measured = dispatchVariants.map((variant) => get(scenario, variant));
    const [plain, plainModel, toolrail, local] = measured.map((entry) => entry?.medianMs);
    const calls = scenario.turns * scenario.calls;
    return [
      scenario.label,
      ...measured.map((entry) => (entry === undefined ? '–' : `${entry.medianMs.toFixed(0)} ms`)),
      times(toolrail, plain),
      times(local, plain),
      times(toolrail, plainModel),
      ...measured.map((entry) => (entry === undefined ? '–' : (entry.timeline.events / calls).toFixed(2))),
    ];
  });
  process.stdout.write(table([header, subHeader, ...rows]));

  process.stdout.write("\n  where a turn's time goes (ms per turn, from the history timestamps of the median run)\n");
  const splitHeader = [
    'scenario',
    'variant',
    'wall',
    'WFT running',
    'WFT queued',
    'act. running',
    'act. queued',
    'other',
    'WFTs',
    'mean WFT run',
    'mean WFT queue',
    'mean act. queue',
    'mean act. run',
  ];
  const splitRows = dispatchScenarios.flatMap((scenario) =>
    dispatchVariants.flatMap((variant) => {
      const timeline = get(scenario, variant)?.timeline;
      if (timeline === undefined) return [];
      const perTurn = (value: number): string => (value / scenario.turns).toFixed(1);
      return [
        [
          scenario.label,
          variant,
          perTurn(timeline.wallMs),
          perTurn(timeline.split.workflowTaskRunning),
          perTurn(timeline.split.workflowTaskQueued),
          perTurn(timeline.split.activityRunning),
          perTurn(timeline.split.activityQueued),
          perTurn(timeline.split.other),
          String(timeline.workflowTasks),
          timeline.mean.workflowTaskRunning.toFixed(1),
          timeline.mean.workflowTaskQueued.toFixed(1),
          timeline.mean.activityQueued.toFixed(1),
          Object.entries(timeline.mean.activityRunning)
            .map(([type, value]) => `${type} ${value.toFixed(1)}`)
            .join(', '),
        ],
      ];
    }),
  );
  process.stdout.write(table([splitHeader, ...splitRows]));
}

function times(value: number | undefined, base: number | undefined): string {
  return value === undefined || base === undefined ? '–' : `${(value / base).toFixed(2)}×`;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return (
    rows
      .map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd())
      .join('\n') + '\n'
  );
}
