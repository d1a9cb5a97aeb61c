// The app's own workflows, bundled by its worker with toolrail's (plugin): one that was there
// before toolrail, and one that runs an agent session as a step, through the sandbox-safe entry.
import { proxyActivities } from '@temporalio/workflow';
import { startChildSession } from 'toolrail/workflow';

const { greet } = proxyActivities({ startToCloseTimeout: '10 seconds' });

/** The app's workflow from before toolrail. */
export async function greeting(name) {
  return greet(name);
}

/** Asks an agent session, as a child of this workflow, and returns how it ended. */
export async function askAgent({ rules, question }) {
  const session = await startChildSession({
    rules,
    model: { provider: 'scripted', model: 'agent' },
    firstMessage: question,
    interactive: false,
  });
  const { status, lastRunEnd, answer, parentCancelled } = await session.result();
  return { status, lastRunEnd, answer, parentCancelled };
}
