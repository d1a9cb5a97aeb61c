import type { JsonObject } from '../../dispatch';
import type { PreparedCall, ToolOutcome } from '../../dispatch';

/** What a pre-tool hook sees: the call about to run. */
export interface PreToolHookEvent {
  readonly sessionId: string;
  readonly prepared: PreparedCall;
  /** The arguments as they stand after earlier hooks (the prepared ones if none rewrote them). */
  readonly args: JsonObject;
}

/**
 * A pre-tool hook's verdict: let the call run, block it (the model gets `HOOK_BLOCKED` and the message),
 * or replace its arguments. Rewritten arguments are validated again (schema, `validateInput`,
 * permission, classification) before the tool runs. Returning nothing means `continue`.
 */
export type PreToolHookResult =
  | { readonly action: 'continue' }
  | { readonly action: 'block'; readonly message: string }
  | { readonly action: 'rewrite'; readonly args: unknown };

/** Runs before a call executes; a throwing hook blocks the call. */
export type PreToolHook = (event: PreToolHookEvent) => PreToolHookResult | void | Promise<PreToolHookResult | void>;

/** What a post-tool hook sees: the call and the outcome the model will get. */
export interface PostToolHookEvent {
  readonly sessionId: string;
  readonly prepared: PreparedCall;
  readonly args: JsonObject;
  readonly outcome: ToolOutcome;
}

/** Observes a call that ran (or failed while running); cannot change its outcome. */
export type PostToolHook = (event: PostToolHookEvent) => void | Promise<void>;

/** Hooks around execution, run in array order. */
export interface ToolHooks {
  readonly preToolUse?: readonly PreToolHook[];
  readonly postToolUse?: readonly PostToolHook[];
  /** Receives what a post-tool hook threw; such errors never change the outcome. Default: ignored. */
  readonly onPostHookError?: (error: unknown, event: PostToolHookEvent) => void;
}
