/**
 * How a session's model and tool activities carry their inputs and results through history:
 * compact, with the fields at their usual value left out, at one boundary (a workflow interceptor
 * and an activity interceptor), so the session's code and the activities see plain data. Runs in
 * the workflow sandbox.
 * @module
 */
export { activityPayloadCompaction, sessionWorkflowType } from './activity-payloads';
export type { ActivityPayloadCompaction } from './activity-payloads';
export { compactionActivityInterceptors } from './activity-interceptors';
