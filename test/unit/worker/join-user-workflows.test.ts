import { describe, expect, it } from 'vitest';
import type { BundleOptions } from '@temporalio/worker';
import { joinUserWorkflows } from '../../../src/worker/join-user-workflows';
import { userWorkflowsAlias, withUserWorkflowsPath, workflowsPath } from '../../../src/worker/workflows-path';

type WebpackConfiguration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

describe('joinUserWorkflows', () => {
  it("makes the bundle's entry toolrail's, which names the worker's workflows through an alias added after the worker's own hook", () => {
    const seen: WebpackConfiguration[] = [];
    const joined = joinUserWorkflows({
      workflowsPath: '/app/src/workflows.ts',
      webpackConfigHook: (config) => {
        seen.push(config);
        return {
          ...config,
          resolve: { ...config.resolve, alias: { ...(config.resolve?.alias as object), mine: '/app/mine.ts' } },
        };
      },
    });
    expect(joined.workflowsPath).toBe(withUserWorkflowsPath);
    const config = joined.webpackConfigHook?.({ resolve: { alias: { __temporal_custom_payload_converter$: false } } });
    expect(seen).toHaveLength(1);
    expect(config?.resolve?.alias).toEqual({
      __temporal_custom_payload_converter$: false,
      mine: '/app/mine.ts',
      [`${userWorkflowsAlias}$`]: '/app/src/workflows.ts',
    });
  });

  it('adds the alias to a list of aliases too', () => {
    const joined = joinUserWorkflows({ workflowsPath: '/app/workflows' });
    const config = joined.webpackConfigHook?.({ resolve: { alias: [{ name: 'x', alias: '/x' }] } });
    expect(config?.resolve?.alias).toEqual([
      { name: 'x', alias: '/x' },
      { name: userWorkflowsAlias, alias: '/app/workflows', onlyModule: true },
    ]);
  });

  it("leaves a bundle of toolrail's workflows alone, and one already joined", () => {
    const own = { workflowsPath };
    expect(joinUserWorkflows(own)).toBe(own);
    const joined = joinUserWorkflows({ workflowsPath: '/app/workflows.ts' });
    expect(joinUserWorkflows(joined)).toBe(joined);
  });
});
