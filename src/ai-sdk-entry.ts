/**
 * `toolrail/ai-sdk`: toolrail's rules in any AI SDK loop (`generateText`, `streamText`,
 * `ToolLoopAgent`, `WorkflowAgent`) without Temporal, and AI SDK tools (`tool()`, `dynamicTool()`)
 * as session tools. Needs the `ai` package (an optional peer dependency of toolrail).
 * @module
 */
export {
  AiSdkToolInvalidError,
  RuleBlockedError,
  RuleStateInvalidError,
  RuleToolMissingError,
  ToolrailPolicy,
  createToolrailPolicy,
  defineAiSdkTools,
  readRuleState,
} from './ai-sdk';
export type {
  AiSdkToolApproval,
  AiSdkToolMetadata,
  DefineAiSdkToolsOptions,
  PolicyToolChoice,
  ShadowVerdict,
  ToolrailPolicyEvent,
  ToolrailPolicyOptions,
  ToolrailPolicyView,
} from './ai-sdk';
