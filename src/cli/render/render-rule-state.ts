import type { RuleRef } from '../../rules';
import type { SessionRuleStateView, SessionStatusView, UsageTotals } from '../../session';
import { formatTable } from './format-table';

/** `file#index` (or the rule id) of a rule, for one table cell. */
export function ruleLabel(ref: RuleRef): string {
  if (ref.kind === 'builtin') return `(${ref.id})`;
  const file = ref.file.split(/[\\/]/).pop() ?? ref.file;
  return `${file}#${ref.index}${ref.line !== undefined ? `:${ref.line}` : ''}`;
}

/** The rule state of a session as readable text: what `toolrail state` prints. */
export function renderRuleState(sessionId: string, state: SessionRuleStateView, status: SessionStatusView): string {
  const rules = state.rules;
  const between =
    state.phase === 'between-runs'
      ? ['', 'No run in progress: what the next run will allow when a message starts it.']
      : [];
  const lines = [
    `Session ${sessionId} · status ${status.status} · run ${rules.run} · turn ${rules.turn}${rules.ended ? ` · run ended (${rules.ended})` : ''}`,
    ...(status.store === undefined ? [] : [`Content store: ${status.store.description} (store id ${status.store.id})`]),
    ...(status.storeProblem === undefined
      ? []
      : [
          `Waiting for the content store since ${new Date(status.storeProblem.since).toISOString()} (${status.storeProblem.code}, checked again ${status.storeProblem.retries} time(s)):`,
          `  ${status.storeProblem.message}`,
          '  The session goes on where it was once the store is back; messages sent meanwhile are kept.',
        ]),
    ...between,
    '',
    `Visible tools (${rules.visible.length}): ${rules.visible.join(', ') || '(none)'}`,
  ];
  if (rules.hidden.length > 0) lines.push('', 'Hidden tools:', ...hiddenToolsTable(rules.hidden));
  if (rules.shadowHidden !== undefined && rules.shadowHidden.length > 0) {
    lines.push('', 'Shadow rules would hide (not enforced: these tools are visible):');
    lines.push(...hiddenToolsTable(rules.shadowHidden));
  }
  if (rules.forbidden.length > 0) {
    lines.push(
      '',
      `Forbidden for the rest of the session: ${rules.forbidden.map(({ tool, by }) => `${tool} (by ${ruleLabel(by)})`).join(', ')}`,
    );
  }
  if (rules.counts.length > 0) {
    lines.push('', 'Counts:');
    lines.push(
      ...formatTable(
        ['TOOL', 'USED', 'LIMIT', 'SCOPE', 'RULE'],
        rules.counts.map((count) => [
          count.tool,
          String(count.count),
          String(count.limit),
          count.scope,
          ruleLabel(count.rule),
        ]),
      ).map((line) => `  ${line}`),
    );
  }
  if (rules.sequences.length > 0) {
    lines.push('', 'Sequences:');
    lines.push(
      ...formatTable(
        ['RULE', 'POSITION', 'EXPECTED NEXT'],
        rules.sequences.map((sequence) => [
          ruleLabel(sequence.rule),
          `${sequence.position}/${sequence.length}`,
          sequence.expected?.join(' | ') ?? '(finished)',
        ]),
      ).map((line) => `  ${line}`),
    );
  }
  if (rules.steps.length > 0) {
    lines.push('', 'Orchestration steps:');
    lines.push(
      ...formatTable(
        ['FILE', 'ACTIVE STEP', 'POSITION', 'EXPECTED NEXT'],
        rules.steps.map((step) => [
          step.file.split(/[\\/]/).pop() ?? step.file,
          step.active ?? '(none)',
          String(step.position),
          step.expected?.join(' | ') ?? '-',
        ]),
      ).map((line) => `  ${line}`),
    );
  }
  if (state.pendingApprovals.length > 0) {
    lines.push('', 'Waiting for approval (toolrail approve|deny SESSION CALL_ID):');
    lines.push(
      ...formatTable(
        ['CALL ID', 'TOOL', 'INPUT', 'WHY'],
        state.pendingApprovals.map((approval) => [
          approval.callId,
          approval.toolName,
          JSON.stringify(approval.input),
          approval.reason,
        ]),
      ).map((line) => `  ${line}`),
    );
  }
  if (state.unavailableTools.length > 0) {
    lines.push('', 'Unavailable now:');
    for (const { toolName, reason } of state.unavailableTools) {
      lines.push(`  ${toolName}: ${reason.split('\n').join('\n    ')}`);
    }
  }
  if (state.runningCalls.length > 0) {
    lines.push(
      '',
      `Running: ${state.runningCalls.map((call) => `${call.toolName} (${call.callId}, ${call.interruptBehavior})`).join(', ')}`,
    );
  }
  lines.push(
    '',
    rules.endCheck.endsRun
      ? 'A text answer would end the run now.'
      : `A text answer would not end the run: ${rules.endCheck.reasons.map((reason) => reason.code).join(', ')}`,
  );
  const shadowRefused = rules.endCheck.shadowRefused ?? [];
  if (shadowRefused.length > 0)
    lines.push(`Shadow rules would refuse it (not enforced): ${shadowRefused.map((reason) => reason.code).join(', ')}`);
  lines.push(
    `Counters: ${status.counters.turns} turns, ${status.counters.toolCalls} tool calls, ${status.counters.blockedCalls} blocked, ${status.counters.runs} runs`,
  );
  // A worker older than this CLI answers without usage.
  if (state.usage !== undefined) {
    lines.push(`Tokens: session ${formatUsage(state.usage.session)} · this run ${formatUsage(state.usage.run)}`);
  }
  return lines.join('\n');
}

/** Token totals in one phrase: `1,234 in (1,000 cached) / 56 out (12 reasoning), 3 model calls`. */
export function formatUsage(totals: UsageTotals): string {
  const count = (value: number): string => value.toLocaleString('en-US');
  const cached = totals.cachedInputTokens > 0 ? ` (${count(totals.cachedInputTokens)} cached)` : '';
  const reasoning = totals.reasoningTokens > 0 ? ` (${count(totals.reasoningTokens)} reasoning)` : '';
  const calls = `${totals.modelCalls} model call${totals.modelCalls === 1 ? '' : 's'}`;
  return `${count(totals.inputTokens)} in${cached} / ${count(totals.outputTokens)} out${reasoning}, ${calls}`;
}

/** Hidden tools as an indented table: each reason a row, the tool named on its first. */
function hiddenToolsTable(hidden: SessionRuleStateView['rules']['hidden']): string[] {
  const rows = hidden.flatMap(({ tool, reasons }) =>
    reasons.map((reason, index) => [
      index === 0 ? tool : '',
      reason.code,
      reason.callFirst?.join(' → ') ?? '',
      ruleLabel(reason.rule),
    ]),
  );
  return formatTable(['TOOL', 'REASON', 'CALL FIRST', 'RULE'], rows).map((line) => `  ${line}`);
}
