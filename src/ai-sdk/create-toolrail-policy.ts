import type { ToolSet } from 'ai';
import type { ToolrailPolicyOptions } from './toolrail-policy';
import { ToolrailPolicy } from './toolrail-policy';

/**
 * A policy that enforces toolrail's rules in an AI SDK loop, from one compiled rule set: narrowing
 * as `activeTools` (with a forced `toolChoice` where the rules require a call), refusals and
 * approvals as `toolApproval`, every outcome recorded by the wrapped `tools`, and the run's end as
 * `stopWhen`. No Temporal needed.
 *
 * @throws AiSdkToolInvalidError when a tool has no input schema.
 * @throws RuleToolMissingError when a rule names a tool that `tools` lacks.
 * @throws RuleStateInvalidError when `state` is not a rule state of these rules.
 */
export function createToolrailPolicy<TOOLS extends ToolSet>(
  options: ToolrailPolicyOptions<TOOLS>,
): ToolrailPolicy<TOOLS> {
  return new ToolrailPolicy(options);
}
