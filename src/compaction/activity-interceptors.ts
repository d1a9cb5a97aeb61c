import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { activityPayloadCompaction } from './activity-payloads';

/**
 * Activity interceptors (on every worker toolrail configures, innermost) that give a session's
 * model and tool activities their input whole and send their result compact
 * (`activityPayloadCompaction`); any other activity passes untouched.
 */
export const compactionActivityInterceptors: ActivityInterceptorsFactory = ({ info }) => {
  const compaction = activityPayloadCompaction(info.workflowType, info.activityType);
  if (compaction === undefined) return {};
  const sessionId = info.workflowExecution?.workflowId ?? '';
  return {
    inbound: {
      async execute(input, next) {
        const [compact, ...rest] = input.args;
        const whole = compaction.expandInput(compact, sessionId);
        return compaction.compactResult(await next({ ...input, args: [whole, ...rest] }), whole);
      },
    },
  };
};
