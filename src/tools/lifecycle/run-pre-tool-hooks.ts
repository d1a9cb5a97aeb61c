import type { JsonObject } from '../../dispatch';
import type { PreparedCall } from '../../dispatch';
import { describeError } from '../describe-error';
import { normalizeToolArgs } from './normalize-tool-args';
import type { PreToolHook } from './tool-hooks';

/** Where the pre-tool hooks left a call. */
export type PreToolHooksVerdict =
  | { readonly action: 'continue'; readonly args: unknown; readonly rewritten: boolean }
  | { readonly action: 'block'; readonly message: string };

/**
 * Runs the pre-tool hooks in order. A rewrite replaces the arguments the next hooks see; a block (or
 * a hook that throws, or answers something unrecognised) stops the chain. Never throws.
 */
export async function runPreToolHooks({
  hooks,
  sessionId,
  prepared,
}: {
  hooks: readonly PreToolHook[];
  sessionId: string;
  prepared: PreparedCall;
}): Promise<PreToolHooksVerdict> {
  let args: JsonObject = prepared.args;
  let current: unknown = prepared.args;
  let rewritten = false;
  for (const [index, hook] of hooks.entries()) {
    let result: unknown;
    try {
      result = await hook({ sessionId, prepared, args });
    } catch (error) {
      return { action: 'block', message: `A pre-tool hook failed, so the call was not run: ${describeError(error)}` };
    }
    if (result === undefined || isAction(result, 'continue')) continue;
    if (isAction(result, 'block')) {
      const message =
        'message' in result && typeof result.message === 'string'
          ? result.message
          : 'A pre-tool hook blocked this call.';
      return { action: 'block', message };
    }
    if (isAction(result, 'rewrite') && 'args' in result) {
      current = result.args;
      rewritten = true;
      const normalized = normalizeToolArgs(current);
      // Arguments that are not even a JSON object end the chain; revalidation reports them.
      if (!normalized.success) break;
      args = normalized.args;
      continue;
    }
    return {
      action: 'block',
      message: `Pre-tool hook #${index + 1} returned an unrecognised verdict, so the call was not run.`,
    };
  }
  return { action: 'continue', args: current, rewritten };
}

function isAction<ACTION extends string>(value: unknown, action: ACTION): value is { action: ACTION } {
  return typeof value === 'object' && value !== null && 'action' in value && value.action === action;
}
