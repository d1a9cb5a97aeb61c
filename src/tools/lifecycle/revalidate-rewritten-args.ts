import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { JsonObject } from '../../dispatch';
import type { PreparedCall, ToolErrorOutcome } from '../../dispatch';
import type { AnyTool, ToolCallTraits } from '../tool';
import type { ToolCallContext } from '../tool-context';
import { parseToolArgs } from './parse-tool-args';

/** Rewritten arguments that passed every check again, or the outcome that refuses them. */
export type RevalidatedArgs =
  | { readonly success: true; readonly args: JsonObject; readonly input: unknown; readonly outcome?: never }
  | { readonly success: false; readonly args?: never; readonly input?: never; readonly outcome: ToolErrorOutcome };

/**
 * Checks arguments a pre-tool hook rewrote as if the model had sent them: schema, `validateInput`,
 * then safety: the rewrite may not make the call less safe than what was dispatched (it may already
 * sit in a concurrent batch) nor need a permission that was not granted. All failures are
 * `HOOK_INPUT_INVALID`, except a permission check that denies (`PERMISSION_DENIED`).
 */
export async function revalidateRewrittenArgs({
  tool,
  prepared,
  rewrittenArgs,
  context,
}: {
  tool: AnyTool;
  prepared: PreparedCall;
  rewrittenArgs: unknown;
  context: ToolCallContext;
}): Promise<RevalidatedArgs> {
  const refuse = (
    message: string,
    code: ToolErrorCode = ToolErrorCode.HOOK_INPUT_INVALID,
    issues?: ToolErrorOutcome['issues'],
  ) => ({
    success: false as const,
    outcome: createToolErrorOutcome({ callId: prepared.callId, toolName: tool.name, code, message, issues }),
  });
  const parsed = await parseToolArgs(tool, rewrittenArgs);
  if (!parsed.success) {
    return refuse(
      `A pre-tool hook rewrote the arguments of ${tool.name} into something that does not match its schema; the call was not run.`,
      undefined,
      parsed.issues,
    );
  }
  const validation = await tool.validateInput(parsed.input, context);
  if (!validation.valid) {
    return refuse(
      `A pre-tool hook rewrote the arguments of ${tool.name} into invalid ones (${validation.message}); the call was not run.`,
    );
  }
  const weakened = weakenedTraits(prepared, tool.classify(parsed.input));
  if (weakened.length > 0) {
    return refuse(
      `A pre-tool hook rewrote the arguments of ${tool.name} into a call that is no longer ${weakened.join(', ')}; the call was not run.`,
    );
  }
  const decision = await tool.checkPermissions(parsed.input, context);
  if (decision.behavior === 'deny') return refuse(decision.message, ToolErrorCode.PERMISSION_DENIED);
  if (decision.behavior === 'ask' && prepared.permission !== 'ask') {
    return refuse(
      `A pre-tool hook rewrote the arguments of ${tool.name} into a call that needs approval, which was not given; the call was not run.`,
    );
  }
  return { success: true, args: parsed.args, input: parsed.input };
}

function weakenedTraits(prepared: PreparedCall, traits: ToolCallTraits): string[] {
  const lost: string[] = [];
  if (prepared.concurrencySafe && !traits.concurrencySafe) lost.push('concurrency-safe');
  if (prepared.readOnly && !traits.readOnly) lost.push('read-only');
  if (!prepared.destructive && traits.destructive) lost.push('non-destructive');
  if (!prepared.openWorld && traits.openWorld) lost.push('closed-world');
  return lost;
}
