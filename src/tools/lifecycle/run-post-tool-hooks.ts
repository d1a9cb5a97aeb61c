import type { PostToolHookEvent, ToolHooks } from './tool-hooks';

/** Runs the post-tool hooks in order; what they throw goes to `onPostHookError` and nowhere else. */
export async function runPostToolHooks(hooks: ToolHooks, event: PostToolHookEvent): Promise<void> {
  for (const hook of hooks.postToolUse ?? []) {
    try {
      await hook(event);
    } catch (error) {
      try {
        hooks.onPostHookError?.(error, event);
      } catch {
        // An observer of observers cannot be allowed to change the outcome either.
      }
    }
  }
}
