import type { z } from 'zod';
import type { ActivityToolTarget } from '../dispatch';
import { defineTool } from './define-tool';
import { ToolDefinitionError } from './errors/tool-definition-error';
import { ToolExecutionError } from './errors/tool-execution-error';
import type { Tool } from './tool';
import type { ToolDefinition } from './tool-definition';

/** The definition of an activity tool: a tool's, without `execute`, and the activity that runs its calls. */
export type ActivityToolDefinition<SCHEMA extends z.ZodType> = Omit<
  ToolDefinition<SCHEMA, unknown>,
  'execute' | 'localActivity' | 'aliases' | 'origin'
> & {
  /**
   * The activity: its type (e.g. `chargeCard`), and the task queue of the workers that have it
   * (defaults to the session's). It gets the call's parsed input as its one argument; what it
   * returns is the call's output. Its time limit is the tool's `timeoutMs`, its retries the tool's
   * `retry` (destructive calls run at most once, whatever it declares).
   */
  activity: ActivityToolTarget;
};

/**
 * A tool whose calls are a Temporal activity you already have, on any task queue, in any language:
 * declared with toolrail's metadata (schema, concurrency class, interrupt behaviour, approval) and
 * governed by the rules, batches, cancellation scopes and run-once semantics like any tool. The
 * session's workflow schedules the activity itself (the tool's `execute` never runs).
 */
export function activityTool<SCHEMA extends z.ZodType>({
  activity,
  ...definition
}: ActivityToolDefinition<SCHEMA>): Tool<z.output<SCHEMA>, unknown> {
  if (typeof activity?.activityType !== 'string' || activity.activityType === '') {
    throw new ToolDefinitionError({
      toolName: definition.name,
      problem: 'an activity tool needs activity.activityType, the activity it schedules',
    });
  }
  const tool = defineTool({
    ...definition,
    execute: () => {
      throw new ToolExecutionError({
        message: `${definition.name} is the activity ${activity.activityType}: the session schedules it, no worker runs it in process`,
      });
    },
  });
  return Object.freeze({ ...tool, activity: { ...activity } });
}
