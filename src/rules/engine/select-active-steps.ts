import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import type { OrchestrationState, RuleState } from '../rule-state';
import type { EvaluationContext } from './evaluation-context';
import { isDone } from './evaluation-context';
import type { OrchestrationIndex } from './rule-index';
import { positionTools, ruleIndex } from './rule-index';

const regexCache = new Map<string, RegExp | null>();

function messageRegex(source: string): RegExp | null {
  let regex = regexCache.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source, 'i');
    } catch {
      regex = null;
    }
    regexCache.set(source, regex);
  }
  return regex;
}

/** Whether all message conditions of a step hold for a user message (case-insensitive). */
export function messageConditionsHold(step: CompiledRuleOf<'step'>, message: string): boolean {
  const lowered = message.toLowerCase();
  for (const condition of step.conditions) {
    const value = condition.value ?? '';
    if (condition.type === 'message_contains' && !lowered.includes(value.toLowerCase())) return false;
    if (condition.type === 'message_starts_with' && !lowered.trimStart().startsWith(value.toLowerCase())) return false;
    if (condition.type === 'message_regex' && messageRegex(value)?.test(message) !== true) return false;
  }
  return true;
}

/** Per step of each orchestration, 1 when its message conditions hold for `message`. */
export function evaluateMessages(rules: CompiledRuleSet, message: string): number[][] {
  return ruleIndex(rules).orchestrations.map((orchestration) =>
    orchestration.steps.map((i) => (messageConditionsHold(rules.rules[i] as CompiledRuleOf<'step'>, message) ? 1 : 0)),
  );
}

function sequenceMatches(step: CompiledRuleOf<'step'>, recent: readonly string[]): boolean {
  const sequence = step.sequence;
  if (sequence === undefined || sequence.length === 0 || recent.length < sequence.length) return false;
  const offset = recent.length - sequence.length;
  return sequence.every((position, i) => positionTools(position).includes(recent[offset + i] ?? ''));
}

function conditionsHold(
  context: EvaluationContext,
  step: CompiledRuleOf<'step'>,
  messageOk: number | undefined,
): boolean {
  if (messageOk !== 1) return false;
  for (const condition of step.conditions) {
    if (condition.type === 'tool_used' && !isDone(context, condition.value ?? '', 'session')) return false;
    if (condition.type === 'sequence_match' && !sequenceMatches(step, context.state.recent)) return false;
  }
  return true;
}

function selectStep(
  context: EvaluationContext,
  orchestration: OrchestrationIndex,
  current: OrchestrationState,
): number | null {
  for (let s = 0; s < orchestration.steps.length; s++) {
    const step = context.rules.rules[orchestration.steps[s] ?? 0] as CompiledRuleOf<'step'>;
    if (step.default || step.conditions.length === 0) continue;
    if (conditionsHold(context, step, current.messageOk[s])) return s;
  }
  if (current.active !== null) return current.active;
  return orchestration.defaultStep >= 0 ? orchestration.defaultStep : null;
}

/**
 * Re-selects the active step of every orchestration: the first step, in order, whose conditions all
 * hold; else the active one stays; else the default step. A change of step resets its sequence position.
 */
export function selectActiveSteps(context: EvaluationContext): RuleState['orchestrations'] {
  const { index, state } = context;
  let changed = false;
  const next = index.orchestrations.map((orchestration, o) => {
    const current = state.orchestrations[o] ?? { active: null, position: 0, messageOk: [] };
    const active = selectStep(context, orchestration, current);
    if (active === current.active) return current;
    changed = true;
    return { active, position: 0, messageOk: current.messageOk };
  });
  return changed ? next : state.orchestrations;
}
