import { isDone } from '../../engine/is-done';
import type { RuleIndex } from '../../engine/rule-index-types';
import { positionTools } from '../../paths/position-tools';
import type { CoreRuleState } from '../../rule-state';
import type { RuleOfKind } from '../rule-kind-module';
import type { OrchestrationIndex, OrchestrationState, StepIndex } from './step-index';

type Step = RuleOfKind<'step'>;

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
export function messageConditionsHold(step: Step, message: string): boolean {
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
export function evaluateMessages(own: StepIndex, message: string): number[][] {
  return own.orchestrations.map((orchestration) =>
    orchestration.steps.map((step) => (messageConditionsHold(step, message) ? 1 : 0)),
  );
}

/** The state the step selection reads: the shared fields and the step kind's own. */
export interface StepSelectionView {
  readonly index: RuleIndex;
  readonly state: CoreRuleState & {
    readonly recent: readonly string[];
    readonly orchestrations: readonly OrchestrationState[];
  };
}

function sequenceMatches(step: Step, recent: readonly string[]): boolean {
  const sequence = step.sequence;
  if (sequence === undefined || sequence.length === 0 || recent.length < sequence.length) return false;
  const offset = recent.length - sequence.length;
  return sequence.every((position, i) => positionTools(position).includes(recent[offset + i] ?? ''));
}

function conditionsHold(view: StepSelectionView, step: Step, messageOk: number | undefined): boolean {
  if (messageOk !== 1) return false;
  for (const condition of step.conditions) {
    if (condition.type === 'tool_used' && !isDone(view, condition.value ?? '', 'session')) return false;
    if (condition.type === 'sequence_match' && !sequenceMatches(step, view.state.recent)) return false;
  }
  return true;
}

function selectStep(view: StepSelectionView, orchestration: OrchestrationIndex, current: OrchestrationState) {
  for (let s = 0; s < orchestration.steps.length; s++) {
    const step = orchestration.steps[s];
    if (step === undefined || step.default || step.conditions.length === 0) continue;
    if (conditionsHold(view, step, current.messageOk[s])) return s;
  }
  if (current.active !== null) return current.active;
  return orchestration.defaultStep >= 0 ? orchestration.defaultStep : null;
}

/**
 * Re-selects the active step of every orchestration: the first step, in order, whose conditions all
 * hold; else the active one stays; else the default step. A change of step resets its sequence position.
 */
export function selectActiveSteps(own: StepIndex, view: StepSelectionView): readonly OrchestrationState[] {
  const { state } = view;
  let changed = false;
  const next = own.orchestrations.map((orchestration, o) => {
    const current = state.orchestrations[o] ?? { active: null, position: 0, messageOk: [] };
    const active = selectStep(view, orchestration, current);
    if (active === current.active) return current;
    changed = true;
    return { active, position: 0, messageOk: current.messageOk };
  });
  return changed ? next : state.orchestrations;
}
