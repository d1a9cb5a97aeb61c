/**
 * The AI SDK part: a policy that enforces the rules in an AI SDK loop through the loop's own hooks,
 * and the conversion of AI SDK tools into toolrail tools. Node side; needs the `ai` package.
 * @module
 */
export { createToolrailPolicy } from './create-toolrail-policy';
export { ToolrailPolicy } from './toolrail-policy';
export type { ToolrailPolicyOptions, ToolrailPolicyView } from './toolrail-policy';
export type { PolicyToolChoice, ToolrailPolicyEvent } from './toolrail-policy-event';
export type { ShadowVerdict } from './shadow-verdict';
export { readRuleState } from './read-rule-state';
export { RuleBlockedError } from './errors/rule-blocked-error';
export { RuleStateInvalidError } from './errors/rule-state-invalid-error';
export { RuleToolMissingError } from './errors/rule-tool-missing-error';
export { AiSdkToolInvalidError } from './errors/ai-sdk-tool-invalid-error';
export { defineAiSdkTools } from './define-ai-sdk-tools';
export type { AiSdkToolApproval, AiSdkToolMetadata, DefineAiSdkToolsOptions } from './define-ai-sdk-tools';
