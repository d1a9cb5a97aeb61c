import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SmokeActivities } from '../activities/smoke-activities';

/** Stage of a smoke run, readable with {@link smokeStageQuery}. */
export type SmokeStage = 'greeting' | 'waiting-for-finish' | 'done';

/** Ends a smoke run that waits for it. */
export const finishSmokeSignal = defineSignal<[{ note: string }]>('finishSmoke');

/** The current stage of a smoke run. */
export const smokeStageQuery = defineQuery<SmokeStage>('smokeStage');

const { greet } = proxyActivities<SmokeActivities>({ startToCloseTimeout: '10 seconds' });

/**
 * The smallest real workflow: one activity round trip, then it waits for a signal, answering a
 * query throughout. Used to check that a server and a worker are wired together.
 */
export async function smokeWorkflow(name: string): Promise<string> {
  let stage: SmokeStage = 'greeting';
  let note: string | undefined;
  setHandler(smokeStageQuery, () => stage, {
    description: 'Where the smoke run is: greeting, waiting-for-finish or done.',
  });
  setHandler(
    finishSmokeSignal,
    (input) => {
      note = input.note;
    },
    { description: 'Ends the smoke run with a note.' },
  );
  const greeting = await greet(name);
  stage = 'waiting-for-finish';
  await condition(() => note !== undefined);
  stage = 'done';
  return `${greeting} (${note ?? ''})`;
}
