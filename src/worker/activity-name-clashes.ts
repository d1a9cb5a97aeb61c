import { ToolrailPluginError } from './toolrail-plugin-error';

/**
 * Refuses a worker whose activities (its own, or earlier plugins') have the name of one of
 * toolrail's activities, which the plugin would replace, or of one of the sessions' tools (a tool
 * is not an activity: one name for both would make every history, UI and log that shows it ambiguous).
 */
export function refuseActivityNameClashes({
  existing,
  toolrail,
  tools,
}: {
  existing: readonly string[];
  toolrail: readonly string[];
  tools: readonly string[];
}): void {
  const names = new Set(existing);
  const taken = toolrail.filter((name) => names.has(name));
  if (taken.length > 0) {
    throw new ToolrailPluginError({
      code: 'ACTIVITY_NAME_CLASH',
      message: `the worker already has activities named ${quoted(taken)}, which toolrail's plugin registers for its sessions (${quoted(toolrail)}): rename yours, or run toolrail's plugin on a worker of its own task queue`,
    });
  }
  const clashing = tools.filter((name) => names.has(name));
  if (clashing.length > 0) {
    throw new ToolrailPluginError({
      code: 'TOOL_NAME_CLASH',
      message: `the tools ${quoted(clashing)} have the names of activities of this worker: give each tool a name of its own (tool names are what the model calls; activity names are what Temporal schedules)`,
    });
  }
}

/** Refuses a worker on which a later plugin (or option) replaced one of toolrail's activities. */
export function refuseReplacedActivities({
  ours,
  registered,
}: {
  ours: Readonly<Record<string, unknown>>;
  registered: ReadonlyMap<string, unknown>;
}): void {
  const replaced = Object.entries(ours)
    .filter(([name, activity]) => registered.get(name) !== activity)
    .map(([name]) => name);
  if (replaced.length === 0) return;
  throw new ToolrailPluginError({
    code: 'ACTIVITY_NAME_CLASH',
    message: `another activity replaced toolrail's ${quoted(replaced)} on this worker (a plugin after toolrail's, or an option that sets activities): rename it, or run toolrail's plugin on a worker of its own task queue`,
  });
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}
