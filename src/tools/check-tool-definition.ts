import type { z } from 'zod';
import { ConcurrencyClass } from '../dispatch';
import { ToolDefinitionError } from './errors/tool-definition-error';
import { nearestName } from '../text';
import { TOOL_NAME_PATTERN } from './tool-name-pattern';
import type { ToolDefinition } from './tool-definition';

/** Every key a {@link ToolDefinition} may have; the compiler keeps this list complete. */
const definitionKeys = Object.keys({
  name: true,
  description: true,
  inputSchema: true,
  execute: true,
  concurrency: true,
  isConcurrencySafe: true,
  isReadOnly: true,
  isDestructive: true,
  isOpenWorld: true,
  requiresPermission: true,
  checkPermissions: true,
  validateInput: true,
  requiresUserInteraction: true,
  interruptBehavior: true,
  maxResultSizeChars: true,
  aliases: true,
  shouldDefer: true,
  alwaysLoad: true,
  searchHint: true,
  isEnabled: true,
  timeoutMs: true,
  heartbeatTimeoutMs: true,
  localActivity: true,
  retry: true,
  origin: true,
} satisfies Record<keyof ToolDefinition<z.ZodType, unknown>, true>);

/**
 * Refuses definitions that could never be dispatched safely: unknown keys (a misspelt option would
 * otherwise be ignored silently), bad names or aliases, unknown classes, non-positive limits. Schema
 * problems are found when the JSON Schema is built.
 *
 * @throws ToolDefinitionError naming the first problem.
 */
export function checkToolDefinition<SCHEMA extends z.ZodType, OUTPUT>(
  definition: ToolDefinition<SCHEMA, OUTPUT>,
): void {
  const fail = (problem: string): never => {
    throw new ToolDefinitionError({ toolName: String(definition.name), problem });
  };
  for (const key of Object.keys(definition)) {
    if (!definitionKeys.includes(key))
      fail(`unknown option "${key}" (did you mean "${nearestName(key, definitionKeys)}"?)`);
  }
  if (typeof definition.name !== 'string' || !TOOL_NAME_PATTERN.test(definition.name)) {
    fail('the name must be 1 to 64 letters, digits, "_" or "-"');
  }
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    fail('the description must not be empty: it is all the model knows about the tool');
  }
  if (typeof definition.execute !== 'function') fail('execute must be a function');
  const aliases = definition.aliases ?? [];
  for (const alias of aliases) {
    if (!TOOL_NAME_PATTERN.test(alias)) fail(`the alias "${alias}" must be 1 to 64 letters, digits, "_" or "-"`);
    if (alias === definition.name) fail(`the alias "${alias}" is the tool's own name`);
  }
  if (new Set(aliases).size !== aliases.length) fail('the aliases contain a duplicate');
  if (definition.concurrency !== undefined && !Object.values(ConcurrencyClass).includes(definition.concurrency)) {
    fail(`unknown concurrency class "${String(definition.concurrency)}"`);
  }
  if (definition.interruptBehavior !== undefined && !['cancel', 'block'].includes(definition.interruptBehavior)) {
    fail(`interruptBehavior must be "cancel" or "block"`);
  }
  const size = definition.maxResultSizeChars;
  if (size !== undefined && !(size === Infinity || (Number.isSafeInteger(size) && size > 0))) {
    fail('maxResultSizeChars must be a positive integer or Infinity');
  }
  for (const key of ['timeoutMs', 'heartbeatTimeoutMs'] as const) {
    const value = definition[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) fail(`${key} must be a positive integer`);
  }
  const retry = definition.retry ?? {};
  if (
    retry.maximumAttempts !== undefined &&
    !(Number.isSafeInteger(retry.maximumAttempts) && retry.maximumAttempts >= 1)
  ) {
    fail('retry.maximumAttempts must be an integer of at least 1');
  }
  for (const key of ['initialIntervalMs', 'maximumIntervalMs'] as const) {
    const value = retry[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      fail(`retry.${key} must be a non-negative integer`);
  }
  if (
    retry.backoffCoefficient !== undefined &&
    !(Number.isFinite(retry.backoffCoefficient) && retry.backoffCoefficient >= 1)
  ) {
    fail('retry.backoffCoefficient must be at least 1');
  }
}
