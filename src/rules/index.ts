/**
 * The rule engine: compile rules (from the unified format or a native one), then narrow, validate and
 * record tool calls against a plain-JSON rule state. Pure and deterministic: the session workflow and
 * `toolrail simulate` run exactly this code.
 *
 * @module
 */
export { ReasonCode } from './kinds/reason-codes';
export type { Reason } from './reason';
export type { RuleRef, BuiltinRuleId } from './rule-ref';
export { builtinRuleRef } from './rule-ref';
export { RuleKind, ruleKinds } from './kinds/rule-kinds';
export { RuleFormat } from './rule-format';
export type { RuleEnforcement } from './rule-enforcement';
export type { RuleDiagnostic } from './rule-diagnostic';
export { formatDiagnostic } from './rule-diagnostic';
export type { Rule, RuleDocument, RuleSettings, RuleSource } from './model/rule';
export type { RuleBody, RuleBodyOf, RuleKindTypes } from './rule-kind-types';
export { buildRuleBodySchema, ruleBodySchema } from './model/rule-body-schema';
export type { CompiledRule, CompiledRuleOf, CompiledRuleSet, CompiledOrchestration } from './compiled-rule-set';
export { defaultMaxTurnsPerRun } from './compiled-rule-set';
export { buildCompiledRuleSetSchema, compiledRuleSetErrors } from './compiled-rule-set-schema';
export type { CompiledRuleSetProblem } from './compiled-rule-set-schema';
export type { CompileRuleSetInput, CompileRuleSetResult } from './compile/compile-rule-set';
export { compileRuleSet } from './compile/compile-rule-set';
export type { RuleState, CoreRuleState, RunEnd, ConditionalDecision, LastCompleted } from './rule-state';
export type { Capture } from './kinds/precondition/capture-table';
export type { OrchestrationState } from './kinds/step/step-index';
export { maxBoundResources } from './rule-state';
export { initialRuleState } from './engine/initial-rule-state';
export { startRun } from './engine/start-run';
export { beginTurn } from './engine/begin-turn';
export type { NarrowResult } from './engine/narrow';
export { narrow } from './engine/narrow';
export type { ValidateResult } from './engine/validate';
export { validate } from './engine/validate';
export { readsOutput } from './engine/reads-output';
export type { CallOutcome } from './engine/call-outcome';
export { record } from './engine/record';
export type { CheckEndResult } from './engine/check-end';
export { checkEnd } from './engine/check-end';
export { endRun, isRunEnded } from './engine/end-run';
export { dependsOn } from './engine/depends-on';
export { approvalDeniedReason } from './engine/approval-denied-reason';
export type { RuleStateView, CoreRuleStateView } from './engine/describe-rule-state';
export { describeRuleState } from './engine/describe-rule-state';
export type { ParsedSource, SourceLocator, ValuePath } from './formats/source-locator';
export type { ImportResult } from './formats/import-result';
export type { ContractDirectory } from './formats/import-contracts';
export { importContract, importContractDirectory } from './formats/import-contracts';
export { importLetta } from './formats/import-letta';
export { importAgentDock } from './formats/import-agentdock';
export { importToolGraph } from './formats/import-tool-graph';
export { importToolrail } from './formats/import-toolrail';
export { importRules } from './formats/import-rules';
export { detectFormat } from './formats/detect-format';
export type { Trace, TraceEvent } from './simulate/trace-schema';
export { traceSchemas } from './simulate/trace-schema';
export type { SimulationLine, SimulationResult, SimulatedCall } from './simulate/simulate-trace';
export { simulateTrace } from './simulate/simulate-trace';
export type { RuleGraph, RuleGraphEdge } from './graph/rule-graph';
export { ruleGraph } from './graph/rule-graph';
export type { GraphFormat } from './graph/render-rule-graph';
export { renderRuleGraph } from './graph/render-rule-graph';
export type {
  AnyRuleKind,
  RuleKindDefinition,
  RuleKindModule,
  KindRule,
  Positioned,
  ToolMention,
} from './kinds/rule-kind-module';
export { zod } from './zod-on-first-use';
