import path from 'node:path';

/** A module of the `workflows` folder: the TypeScript source in the repository, the compiled module in the package. */
function workflowsModule(name: string): string {
  return path.resolve(__dirname, '../../workflows', path.extname(__filename) === '.ts' ? `${name}.ts` : `${name}.js`);
}

/**
 * The workflow bundle's entry point (every toolrail workflow): the TypeScript source when toolrail
 * runs from its repository (through tsx or vitest), the compiled `dist/workflows/index.js` when it
 * runs from the installed package. Both sit two folders above this file.
 */
export const workflowsPath = workflowsModule('index');

/** The module a bundle preloads to turn the workflows' stack traces off (`workflows/stack-traces-off.ts`). */
export const stackTracesOffPath = workflowsModule('stack-traces-off');

/** The modules every bundle preloads, to share them between sessions (`workflows/shared-modules.ts`). */
export const sharedModulesPath = workflowsModule('shared-modules');

/** The workflow interceptors every toolrail bundle has (`workflows/unreadable-result-interceptors.ts`). */
export const unreadableResultInterceptorsPath = workflowsModule('unreadable-result-interceptors');
/**
 * The workflow interceptors that hand each task's feed events to the live channel
 * (`workflows/publish-live.ts`): in the bundles of workers that have one.
 */
export const publishLiveInterceptorsPath = workflowsModule('publish-live');

/**
 * The workflow interceptors every toolrail bundle has last (innermost): a session's model and tool
 * activities carry their payloads compact (`src/compaction/workflow-interceptors.ts`).
 */
export const compactionInterceptorsPath = path.resolve(
  __dirname,
  '../compaction',
  path.extname(__filename) === '.ts' ? 'workflow-interceptors.ts' : 'workflow-interceptors.js',
);

/**
 * The bundle's entry point when toolrail's workflows join a worker's own (`toolrailPlugin`): it
 * re-exports the module {@link userWorkflowsAlias} names, and toolrail's workflows.
 */
export const withUserWorkflowsPath = workflowsModule('with-user-workflows');

/** The module name `withUserWorkflowsPath` imports the worker's own workflows by (a bundler alias). */
export const userWorkflowsAlias = '__toolrail_user_workflows__';
