import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFeedEvent } from '../../../src/cli/render/render-feed-event';
import { uiMessageChunker } from '../../../src/client';
import type { ToolrailClient } from '../../../src/client/toolrail-client';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { FeedEvent, FeedEventOf, SessionRuleStateView, TranscriptEntry } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf, outline } from '../../helpers/transcript-entries';

/**
 * A refund desk's rules: a refund only after an eligibility check, none once the case is closed.
 * Rolled out in shadow, with two more shadow rules: a human approves eligibility checks, and a
 * survey is sent before the run ends.
 */
function deskRules(enforcement: 'enforce' | 'shadow') {
  const shadowOnly = `
  - { kind: requires_approval, id: check-approval, tool: check_eligibility, enforcement: shadow }
  - { kind: required_before_exit, id: survey-before-exit, tool: send_survey, enforcement: shadow }`;
  return compileRules(`
toolrail: 1
rules:
  - { kind: requires, id: refund-after-check, tool: issue_refund, after: [check_eligibility], enforcement: ${enforcement} }
  - { kind: forbids_after, id: no-refund-after-close, tool: close_case, forbids: [issue_refund], enforcement: ${enforcement} }
${enforcement === 'shadow' ? shadowOnly : ''}`);
}

/** The model refunds before the check, checks, closes the case, refunds again (held while it runs), then answers. */
function deskModel() {
  return createScriptedModel([
    toolCallResponse('issue_refund', {}, { id: 'refund_early' }),
    toolCallResponse('check_eligibility', {}, { id: 'check' }),
    toolCallResponse('close_case', {}, { id: 'close' }),
    toolCallResponse('issue_refund', { hold: true }, { id: 'refund_late' }),
    textResponse('The case is closed.'),
  ]);
}

const deskTools = (probe: ToolProbe) =>
  ['check_eligibility', 'close_case', 'issue_refund', 'send_survey'].map((name) =>
    defineProbeTool({ name, probe, concurrency: 'WRITE_EXCLUSIVE' }),
  );

/** What one session of the desk did: its feed, transcript, the calls that ran and its rule state mid-run. */
interface DeskRun {
  feed: FeedEvent[];
  transcript: TranscriptEntry[];
  ran: string[];
  /** The rule state while `refund_late` runs; undefined when it never ran. */
  whileRefunding: SessionRuleStateView | undefined;
}

async function runDesk(client: ToolrailClient, probe: ToolProbe, enforcement: 'enforce' | 'shadow'): Promise<DeskRun> {
  const session = await client.startSession({
    sessionId: uniqueName(`shadow-rules-${enforcement}`),
    rules: deskRules(enforcement),
    model: { provider: 'scripted', model: `desk-${enforcement}` },
    firstMessage: 'Refund order A-1 and close my case.',
    limits: { closeWhenIdle: true },
  });
  let whileRefunding: SessionRuleStateView | undefined;
  if (enforcement === 'shadow') {
    await probe.started('refund_late');
    whileRefunding = await pollUntil(
      () => session.ruleState(),
      (state) => state.runningCalls.some(({ callId }) => callId === 'refund_late'),
    );
    probe.release('refund_late');
  }
  const result = await session.result();
  expect(result.lastRunEnd).toBe('answered');
  const feed: FeedEvent[] = [];
  for await (const event of session.events()) feed.push(event);
  return { feed, transcript: await session.transcript(), ran: probe.runs.map(({ callId }) => callId), whileRefunding };
}

/** Each `rule_shadowed` event of a feed as `turn kind subject: codes`. */
function shadowed(feed: readonly FeedEvent[]): string[] {
  return feed.flatMap((event) => {
    if (event.type !== 'rule_shadowed') return [];
    const codes = (reasons: readonly { code: string }[]) => reasons.map(({ code }) => code).join(',');
    if (event.kind === 'hidden')
      return event.tools.map(({ tool, reasons }) => `${event.turn} hidden ${tool}: ${codes(reasons)}`);
    if (event.kind === 'end') return [`${event.turn} end: ${codes(event.reasons)}`];
    return [`${event.turn} ${event.kind} ${event.callId}: ${codes(event.reasons)}`];
  });
}

/** The reasons without the rule that gave them: what the model reads, the same for a rule and its shadow copy. */
const said = (reasons: readonly { code: string; message: string; callFirst?: readonly string[] }[]) =>
  reasons.map(({ code, message, callFirst }) => ({ code, message, ...(callFirst ? { callFirst } : {}) }));

/** Each hidden tool of a turn as `turn tool: messages`. */
function hiddenLines(turn: number, hidden: readonly { tool: string; reasons: { code: string; message: string }[] }[]) {
  return hidden.map(({ tool, reasons }) => `${turn} ${tool}: ${reasons.map(({ message }) => message).join(' ')}`);
}

function theSpan(spans: readonly ReadableSpan[], name: string, attributes: Record<string, unknown>): ReadableSpan {
  const found = spans.filter(
    (span) => span.name === name && Object.entries(attributes).every(([key, value]) => span.attributes[key] === value),
  );
  if (found.length !== 1) throw new Error(`expected one ${name} ${JSON.stringify(attributes)}, found ${found.length}`);
  return found[0] as ReadableSpan;
}

describe('shadow rules in a durable session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('runs every call shadow rules would refuse, and the feed, transcript, ruleState and spans say what they would have done and why', async () => {
    const probe = new ToolProbe();
    const exporter = new InMemorySpanExporter();
    const tracing = { spanProcessor: new SimpleSpanProcessor(exporter) };
    await withSessionWorker(
      { connections, tools: deskTools(probe), scriptedModels: { 'desk-shadow': deskModel() }, tracing },
      async ({ client }) => {
        const { feed, transcript, ran, whileRefunding } = await runDesk(client, probe, 'shadow');

        // Nothing was enforced: every call ran, none was refused, no human was asked.
        expect(ran).toEqual(['refund_early', 'check', 'close', 'refund_late']);
        const verdicts = feed.filter((event): event is FeedEventOf<'verdict'> => event.type === 'verdict');
        expect(verdicts.map(({ callId, verdict }) => `${callId}:${verdict}`)).toEqual([
          'refund_early:allowed',
          'check:allowed',
          'close:allowed',
          'refund_late:allowed',
        ]);
        expect(feed.some((event) => event.type === 'approvals_requested')).toBe(false);
        const narrowed = feed.filter((event) => event.type === 'tools_narrowed');
        expect(narrowed.every((event) => event.type === 'tools_narrowed' && event.hidden.length === 0)).toBe(true);

        // The feed says what they would have done, step by step, with their reasons.
        expect(shadowed(feed)).toEqual([
          '0 hidden issue_refund: prerequisite_not_met',
          '0 refused refund_early: prerequisite_not_met',
          '1 hidden issue_refund: prerequisite_not_met',
          '1 approval check: ',
          '3 hidden issue_refund: forbidden_after',
          '3 refused refund_late: forbidden_after',
          '4 hidden issue_refund: forbidden_after',
          '4 end: required_before_exit',
        ]);
        const early = feed.find((event) => event.type === 'rule_shadowed' && event.kind === 'refused');
        expect(early).toMatchObject({
          reasons: [
            {
              code: 'prerequisite_not_met',
              message: expect.stringContaining('check_eligibility') as unknown,
              callFirst: ['check_eligibility'],
              rule: 'refund-after-check',
            },
          ],
        });

        // `toolrail follow` prints them; the UI message stream has a data part for each, and the calls' outputs.
        const lines = feed.map(renderFeedEvent).filter((line) => line?.includes('◌'));
        expect(lines).toHaveLength(8);
        expect(lines[1]).toMatch(
          /^\[turn 0\] {3}◌ issue_refund runs; shadow rules would refuse it: \[prerequisite_not_met\] .*\(rule refund-after-check\)$/,
        );
        const chunker = uiMessageChunker({ sessionId: 's' });
        const chunks = [];
        for (const event of feed) chunks.push(...(await chunker(event)));
        expect(chunks.flatMap((chunk) => (chunk.type === 'data-shadow' ? [chunk.id] : []))).toEqual([
          'shadow-hidden-0',
          'shadow-refund_early',
          'shadow-hidden-1',
          'shadow-check',
          'shadow-hidden-3',
          'shadow-refund_late',
          'shadow-hidden-4',
          'shadow-end-4',
        ]);
        const outputs = chunks.flatMap((chunk) => (chunk.type === 'tool-output-available' ? [chunk.toolCallId] : []));
        expect(outputs).toEqual(['refund_early', 'check', 'close', 'refund_late']);

        // The transcript notes them in order, each beside the call or turn it is about, with the same reasons.
        expect(outline(transcript).filter((line) => /^(shadow|verdict|run-end)/.test(line))).toEqual([
          'shadow:hidden:issue_refund',
          'verdict:issue_refund#refund_early:allowed',
          'shadow:refused:issue_refund#refund_early',
          'shadow:hidden:issue_refund',
          'verdict:check_eligibility#check:allowed',
          'shadow:approval:check_eligibility#check',
          'verdict:close_case#close:allowed',
          'shadow:hidden:issue_refund',
          'verdict:issue_refund#refund_late:allowed',
          'shadow:refused:issue_refund#refund_late',
          'shadow:hidden:issue_refund',
          'shadow:end',
          'run-end:answered',
        ]);
        const feedShadows = feed.flatMap((event) => {
          if (event.type !== 'rule_shadowed') return [];
          const { type: _type, offset: _offset, at: _at, run: _run, turn, ...shadow } = event;
          return [{ turn, shadow }];
        });
        expect(entriesOf(transcript, 'shadow').map(({ turn, shadow }) => ({ turn, shadow }))).toEqual(feedShadows);

        // Mid-run, the rule state shows the tool they would hide now (the case is closed), and why.
        expect(whileRefunding?.phase).toBe('run');
        expect(whileRefunding?.rules.hidden).toEqual([]);
        expect(whileRefunding?.rules.visible).toContain('issue_refund');
        expect(whileRefunding?.rules.shadowHidden).toEqual([
          {
            tool: 'issue_refund',
            reasons: [
              expect.objectContaining({
                code: 'forbidden_after',
                rule: expect.objectContaining({ id: 'no-refund-after-close' }) as unknown,
              }),
            ],
          },
        ]);
        expect(whileRefunding?.rules.endCheck.shadowRefused?.map(({ code }) => code)).toEqual(['required_before_exit']);

        // Spans: hidden tools and the refused answer on the turn's span, a call's shadow verdict on its own.
        const spans = await pollUntil(
          () => Promise.resolve(exporter.getFinishedSpans()),
          (finished) => finished.some((span) => span.name === 'RunWorkflow:agentSession'),
        );
        const firstTurn = theSpan(spans, 'toolrail.turn', { 'toolrail.turn.index': 0 });
        expect(firstTurn.attributes['toolrail.shadow.hidden']).toEqual(['issue_refund']);
        expect(firstTurn.attributes['toolrail.shadow.hidden_reasons']).toEqual([
          expect.stringMatching(/^issue_refund: \[prerequisite_not_met\] /),
        ]);
        expect(
          theSpan(spans, 'toolrail.tool_call', { 'toolrail.tool.call_id': 'refund_early' }).attributes,
        ).toMatchObject({
          'toolrail.verdict': 'allowed',
          'toolrail.shadow.verdict': 'refused',
          'toolrail.shadow.reason_codes': ['prerequisite_not_met'],
        });
        expect(theSpan(spans, 'toolrail.tool_call', { 'toolrail.tool.call_id': 'check' }).attributes).toMatchObject({
          'toolrail.shadow.verdict': 'approval',
          'toolrail.approved': false,
        });
        const closeSpan = theSpan(spans, 'toolrail.tool_call', { 'toolrail.tool.call_id': 'close' });
        expect(closeSpan.attributes).not.toHaveProperty('toolrail.shadow.verdict');
        const lastTurn = theSpan(spans, 'toolrail.turn', { 'toolrail.turn.index': 4 });
        expect(lastTurn.attributes['toolrail.shadow.end_reason_codes']).toEqual(['required_before_exit']);
      },
    );
  });

  it('refuses, enforced, each call the shadow rules would have refused, with the reasons they gave', async () => {
    const [shadowProbe, enforcedProbe] = [new ToolProbe(), new ToolProbe()];
    const models = { 'desk-shadow': deskModel(), 'desk-enforce': deskModel() };
    const shadowRun = await withSessionWorker(
      { connections, tools: deskTools(shadowProbe), scriptedModels: models },
      ({ client }) => runDesk(client, shadowProbe, 'shadow'),
    );
    const enforcedRun = await withSessionWorker(
      { connections, tools: deskTools(enforcedProbe), scriptedModels: models },
      ({ client }) => runDesk(client, enforcedProbe, 'enforce'),
    );
    expect(enforcedRun.ran).toEqual(['check', 'close']);
    expect(shadowed(enforcedRun.feed)).toEqual([]);

    const wouldRefuse = new Map(
      entriesOf(shadowRun.transcript, 'shadow').flatMap(({ shadow }) =>
        shadow.kind === 'refused' ? [[shadow.callId, said(shadow.reasons)] as const] : [],
      ),
    );
    const refused = new Map(
      entriesOf(enforcedRun.transcript, 'verdict').flatMap((verdict) =>
        verdict.verdict === 'blocked' ? [[verdict.callId, said(verdict.reasons)] as const] : [],
      ),
    );
    expect([...wouldRefuse.keys()]).toEqual(['refund_early', 'refund_late']);
    expect(refused).toEqual(wouldRefuse);
    // The tools shadow rules would hide are the ones the enforced rules hide, turn by turn, for the same reasons.
    const wouldHide = shadowRun.feed.flatMap((event) =>
      event.type === 'rule_shadowed' && event.kind === 'hidden' ? hiddenLines(event.turn, event.tools) : [],
    );
    const hid = enforcedRun.feed.flatMap((event) =>
      event.type === 'tools_narrowed' ? hiddenLines(event.turn, event.hidden) : [],
    );
    expect(wouldHide).toHaveLength(4);
    expect(hid).toEqual(wouldHide);
  });
});
