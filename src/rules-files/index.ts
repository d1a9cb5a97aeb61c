/**
 * Reading rules and traces from files (Node side): YAML/JSON parsing with line positions, contract
 * directories, and the one-line `FILE:PLACE: problem — fix` diagnostics.
 *
 * @module
 */
export type { LoadRuleDocumentsOptions, LoadRuleDocumentsResult } from './load-rule-documents';
export { loadRuleDocuments } from './load-rule-documents';
export type { LoadRuleSetOptions, LoadRuleSetResult } from './load-rule-set';
export { loadRuleSet } from './load-rule-set';
export type { LoadTraceResult } from './load-trace';
export { loadTrace } from './load-trace';
export type { ParseSourceResult } from './parse-source-text';
export { parseSourceText } from './parse-source-text';
export { readSourceFile, maxSourceFileBytes } from './read-source-file';
export { parseRuleFormatOption, ruleFormatChoices } from './rule-format-option';
