import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { NarrowResult } from '../src/rules';
import {
  changedSearchAttributes,
  listedStatus,
  renderCurrentDetails,
  sessionSearchAttributes,
  toolrailSearchAttributes,
  toolrailStatusKey,
  unhandledEvent,
} from '../src/session';
import { narrowedCatalog } from './narrowed-catalog';
import { isEnding } from './session-state';
import type { SessionState } from './session-state';
import type { SessionView } from './session-view';
import { currentStoreProblem, unavailableTools } from './status-view';

/** How many of the latest notices the current details show. */
const noticesShown = 3;

/**
 * The session in the Temporal UI: its search attributes (the listed status, with the counts and the
 * last tool as they are when it moves and before continue-as-new, so a turn upserts none; only
 * those that changed are upserted, so each upsert stays small in history) and a Markdown
 * summary as the workflow's current details (with the latest notices: a signal or update toolrail
 * does not know, a payload it dropped; and the rules' narrowing of the turn), brought up to date
 * after each event that moves the status and each notice. `firstLook` shows the state of a
 * workflow run that begins between runs. A run starts from the search attributes it was started
 * with (those `ToolrailClient` sets, or the run before it left), and a run after which the session
 * ends moves the status once, to where it ends.
 */
export function temporalUiView(): { onEvent: SessionView; firstLook: (state: SessionState) => void } {
  const upserted = new Map<string, unknown>(startedWithSearchAttributes());
  const notices: string[] = [];
  // Current details are not a workflow command; search attributes are: only events that move the status upsert them.
  const publish = (state: SessionState, { detailsOnly = false, allAttributes = false } = {}): void => {
    const { status, lastTool, counters, lastRunEnd, run, usage } = state;
    const pendingApprovals = [...state.pendingApprovals.values()];
    const shown = listedStatus(status);
    const upsertNow = !detailsOnly && (allAttributes || upserted.get(toolrailStatusKey.name) !== shown);
    if (upsertNow) {
      const attributes = sessionSearchAttributes({ status: shown, lastTool, counters, pendingApprovals, usage });
      const changed = changedSearchAttributes(attributes, upserted);
      if (changed.length > 0) upsertSearchAttributes(changed);
    }
    const narrowed = (): NarrowResult => narrowedCatalog(state);
    const storeProblem = currentStoreProblem(state);
    const view = {
      ...{ status, counters, pendingApprovals, lastRunEnd, runInProgress: run.inProgress, narrowed, notices },
      unavailableTools: unavailableTools(state),
    };
    setCurrentDetails(renderCurrentDetails(storeProblem ? { ...view, storeProblem } : view));
  };
  return {
    // A run that starts with a message queued shows its details only: the run begins in this
    // workflow task and moves the status (`ToolrailClient` starts such a session listed as `running`).
    firstLook: (state) => publish(state, { detailsOnly: state.queuedMessages.length > 0 }),
    onEvent(event, state) {
      switch (event.type) {
        case 'notice':
          notices.splice(0, Math.max(0, notices.push(event.text) - noticesShown));
          return publish(state, { detailsOnly: true });
        case 'run_ended':
          // A session that ends now: `session_ended` follows in this workflow task and shows the end.
          return isEnding(state) ? undefined : publish(state);
        case 'continued_as_new':
          // The next run starts from these: a long run's counts reach the list at least once per workflow run.
          return publish(state, { allAttributes: true });
        // The events that move the status.
        case 'model_call_started':
        case 'batch_started':
        case 'approvals_requested':
        case 'approvals_closed':
        case 'session_ended':
        case 'store_waiting':
        case 'store_back':
        case 'worker_waiting':
        case 'worker_back':
          return publish(state);
        case 'message_received':
        case 'messages_stored':
        case 'run_started':
        case 'turn_started':
        case 'catalog_changed':
        case 'tools_narrowed':
        case 'rule_shadowed':
        case 'model_responded':
        case 'model_text':
        case 'model_call_failed':
        case 'end_refused':
        case 'verdict':
        case 'approval_decided':
        case 'tool_started':
        case 'tool_ended':
        case 'batch_ended':
        case 'batch_cancelled':
        case 'results_appended':
        case 'log_sealed':
        case 'interrupt_received':
        case 'end_requested':
        case 'store_identified':
          return;
        default:
          return unhandledEvent(event);
      }
    },
  };
}

/**
 * The values of toolrail's search attributes this workflow run started with (absent ones as `null`,
 * as an upsert removes them).
 */
function startedWithSearchAttributes(): [string, unknown][] {
  const { typedSearchAttributes } = workflowInfo();
  return toolrailSearchAttributes.map((key) => [key.name, typedSearchAttributes.get(key) ?? null]);
}
