import type { ScriptedResponse } from '../../src/models';
import { parallelToolCallsResponse, textResponse } from '../../src/models';
import { localToolPrefix } from './bench-tools';

/** One shape of work, run by a toolrail session and by the plain baseline. */
export interface DispatchScenario {
  /** Scripted model name (and, with `-local`, the one whose tools run as local activities). */
  key: string;
  label: string;
  turns: number;
  /** Tool calls per turn, all in one model response (one concurrent batch). */
  calls: number;
  /** How long each call waits; 0 for a no-op. */
  delayMs: number;
}

/** The benchmark's scenarios (the issue's: wide 200 ms turn, ten wide no-op turns, twenty one-call turns). */
export const dispatchScenarios: readonly DispatchScenario[] = [
  { key: 'wide-200ms', label: '1 turn × 10 parallel 200 ms calls', turns: 1, calls: 10, delayMs: 200 },
  { key: 'wide-noop', label: '10 turns × 10 parallel no-op calls', turns: 10, calls: 10, delayMs: 0 },
  { key: 'sequential-noop', label: '20 turns × 1 no-op call', turns: 20, calls: 1, delayMs: 0 },
];

/** How one scenario is run. */
export const dispatchVariants = ['plain', 'plain+model', 'toolrail', 'toolrail, local tools'] as const;
export type DispatchVariant = (typeof dispatchVariants)[number];

/** The scripted model's responses for a scenario: its turns of parallel calls, then a text answer. */
export function scenarioScript(
  { turns, calls, delayMs }: DispatchScenario,
  { local }: { local: boolean },
): ScriptedResponse[] {
  const prefix = local ? localToolPrefix : '';
  const turnResponses = Array.from({ length: turns }, () =>
    parallelToolCallsResponse(
      Array.from({ length: calls }, (_, index) =>
        delayMs > 0
          ? { name: `${prefix}wait`, args: { delay_ms: delayMs } }
          : { name: `${prefix}noop`, args: { index } },
      ),
    ),
  );
  return [...turnResponses, textResponse('done')];
}

/** The scripted models of every scenario, by name. */
export function scenarioModelNames(scenario: DispatchScenario, variant: DispatchVariant): string {
  return variant === 'toolrail, local tools' ? `${scenario.key}-local` : scenario.key;
}
