import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { supportDeskScript } from '../../examples/support-desk/support-desk-script';
import { createSupportDeskTools } from '../../examples/support-desk/support-desk-tools';
import type { SessionHandle } from '../../src/client/session-handle';
import { renderTranscriptEntry } from '../../src/cli/render/render-transcript-entry';
import type { SessionRuleStateView, SessionStatusView } from '../../src/session/session-views';
import { connectToHarness, uniqueName } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import { pollUntil } from '../helpers/poll-until';
import { startBackgroundWorker } from './support/background-worker';
import { endSession } from './support/end-session';
import type { BackgroundWorker } from './support/background-worker';
import { harnessConnectionArgs, runCli } from './support/run-cli';
import type { CliResult } from './support/run-cli';

const rulesFile = path.join(__dirname, '..', '..', 'examples', 'support-desk', 'support-desk-rules.yaml');
const firstMessage = 'ada@example.com says order ORD-1001 arrived broken. Please refund it and keep a ticket of it.';
const approvalReason = 'refund ok, signed off by the CLI test';

/** The lines a command wrote to stderr (without the final newline). */
function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line !== '');
}

/**
 * The real `toolrail` CLI (child processes of `node bin/toolrail.cjs`) against the harness's dev
 * server and a running worker with the support-desk tools and the demo's scripted model. Each test
 * brings its own session to the stage of its life it needs (started, waiting for approval, ended),
 * so the tests pass alone and in any order.
 */
describe('the toolrail CLI', () => {
  let connections: HarnessConnections;
  let worker: BackgroundWorker;
  const sessions: SessionHandle[] = [];
  const connection = (): string[] => [...harnessConnectionArgs(), '--task-queue', worker.taskQueue];
  const sessionUrl = (sessionId: string): string =>
    `${inject('temporalUiAddress')}/namespaces/${inject('temporalNamespace')}/workflows/${sessionId}`;

  /** Starts a session with the CLI, as a user would, and returns it once it waits for its first message. */
  async function startIdleSession(): Promise<{ sessionId: string; session: SessionHandle; started: CliResult }> {
    const sessionId = uniqueName('cli-session');
    const started = await runCli([
      'start',
      '--rules',
      rulesFile,
      '--model',
      'scripted:support-desk',
      '--system',
      'You are a support agent.',
      '--session-id',
      sessionId,
      ...connection(),
    ]);
    const session = worker.client.getSession(sessionId);
    sessions.push(session);
    await pollUntil(
      () => session.status(),
      (s) => s.status === 'idle',
      { timeoutMs: 30_000 },
    );
    return { sessionId, session, started };
  }

  /** A session whose run reached the refund that waits for approval. */
  async function startSessionAwaitingApproval(): Promise<{ sessionId: string; session: SessionHandle }> {
    const { sessionId, session } = await startIdleSession();
    await session.send(firstMessage);
    await untilApprovalPending(session);
    return { sessionId, session };
  }

  /** A session whose refund was approved and whose run went on to its end. */
  async function startEndedRun(): Promise<{ sessionId: string; session: SessionHandle }> {
    const { sessionId, session } = await startSessionAwaitingApproval();
    const [pending] = (await session.ruleState()).pendingApprovals;
    await session.approve(pending?.callId ?? '', approvalReason);
    await untilRunEnded(session);
    return { sessionId, session };
  }

  beforeAll(async () => {
    connections = await connectToHarness();
    worker = await startBackgroundWorker({
      connections,
      tools: createSupportDeskTools({ searchDelayMs: 200 }),
      scriptedModels: { 'support-desk': supportDeskScript() },
    });
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => endSession(session)));
    await worker?.stop();
    await connections?.close();
  });

  it('start: starts a session from a rules file and prints its id and Web UI address', async () => {
    // The session runs on the worker and waits for its first message; the printed address is served.
    const { sessionId, session, started } = await startIdleSession();
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toBe(`session ${sessionId}\n${sessionUrl(sessionId)}\n`);
    expect((await session.status()).counters.runs).toBe(0);
    expect((await fetch(sessionUrl(sessionId))).status).toBe(200);
  });

  it('start: without --session-id, a fresh session id is made up and printed', async () => {
    const started = await runCli(['start', '--rules', rulesFile, '--model', 'scripted:support-desk', ...connection()]);
    expect(started.code).toBe(0);
    const match = /^session (session-[0-9a-f-]{36})\n(.+)\n$/.exec(started.stdout);
    expect(match?.[2]).toBe(
      `${inject('temporalUiAddress')}/namespaces/${inject('temporalNamespace')}/workflows/${match?.[1]}`,
    );
    const other = worker.client.getSession(match?.[1] ?? '');
    sessions.push(other);
    expect((await other.workflow.describe()).status.name).toBe('RUNNING');
    await other.end();
    expect((await other.result()).status).toBe('completed');
  });

  it('start: a broken rules file is refused with one line naming the file and the place, and nothing starts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-cli-'));
    try {
      const broken = path.join(dir, 'broken.yaml');
      writeFileSync(broken, 'toolrail: 1\nrules:\n  - kind: max_count\n    tool: lookup_customer\n    limit: -1\n');
      const id = uniqueName('never-started');
      const started = await runCli([
        'start',
        '--rules',
        broken,
        '--model',
        'scripted:support-desk',
        '--session-id',
        id,
        ...connection(),
      ]);
      expect(started.code).toBe(2);
      expect(started.stdout).toBe('');
      expect(stderrLines(started)).toEqual([
        expect.stringMatching(new RegExp(`^${escape(broken)}:5 \\(rules\\[0\\]\\.limit\\): .+ — .+`)),
      ]);
      await expect(worker.client.getSession(id).workflow.describe()).rejects.toThrow(/not found/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('send: a user message starts a run, which goes on until a refund waits for approval', async () => {
    const { sessionId, session } = await startIdleSession();
    const sent = await runCli(['send', sessionId, ...firstMessage.split(' '), ...connection()]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toBe(`sent to ${sessionId} (feed offset 0)\n`);
    const state = await untilApprovalPending(session);
    expect(state.pendingApprovals.map((approval) => approval.toolName)).toEqual(['issue_refund']);
    expect((await session.transcript())[0]).toMatchObject({ kind: 'user', turn: 0, text: firstMessage });
  });

  it('send --wait: prints how the run the message started ended, and the answer', async () => {
    const { sessionId, session } = await startEndedRun();
    const sent = await runCli(['send', sessionId, 'Thanks!', '--wait', ...connection()]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const status = await session.status();
    expect(sent.stdout).toBe(
      `sent to ${sessionId} (feed offset ${await feedOffsetOfLastMessage(session)})\nrun 2 ended: answered\nAll done: ORD-1001 is refunded and the ticket is closed.\n`,
    );
    expect(status.lastRunEnd).toBe('answered');
  });

  it('state: prints visible tools, hidden tools with reasons, counts and the pending approval as a table', async () => {
    const { sessionId, session } = await startSessionAwaitingApproval();
    const [state, status] = await Promise.all([session.ruleState(), session.status()]);
    const shown = await runCli(['state', sessionId, ...connection()]);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toBe(`Session ${sessionId} · status awaiting_approval · run 1 · turn ${state.rules.turn}`);
    expect(lines).toContain(
      'Visible tools (5): check_eligibility, create_ticket, issue_refund, lookup_customer, search_knowledge_base',
    );
    expect(lines).toContain('Hidden tools:');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}TOOL +REASON +CALL FIRST +RULE$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}assign_ticket +prerequisite_not_met +create_ticket +support-desk-rules\.yaml#0:5$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}close_ticket +prerequisite_not_met +create_ticket +support-desk-rules\.yaml#1:8$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}search_knowledge_base +1 +2 +run +support-desk-rules\.yaml#6:30$/),
    );
    const [pending] = state.pendingApprovals;
    expect(lines).toContainEqual(expect.stringMatching(/^Waiting for approval/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^ {2}${pending?.callId} +issue_refund +\\{"order_id":"ORD-1001","amount":42\\}`),
      ),
    );
    expect(lines).toContain(
      `Counters: ${status.counters.turns} turns, ${status.counters.toolCalls} tool calls, 2 blocked, 1 runs`,
    );
    // The scripted model reports no usage: the calls are counted, their tokens are zero.
    const calls = `${status.usage.session.modelCalls} model calls`;
    expect(status.usage.session.modelCalls).toBe(status.counters.turns);
    expect(lines).toContain(`Tokens: session 0 in / 0 out, ${calls} · this run 0 in / 0 out, ${calls}`);
  });

  it('sessions: lists the session under its status only (the ToolrailStatus search attribute)', async () => {
    const { sessionId } = await startSessionAwaitingApproval();
    // Search attributes reach the list through the visibility store a moment later: poll.
    const awaiting = await pollUntil(
      () => runCli(['sessions', '--status', 'awaiting_approval', '--json', ...connection()]),
      (result) => result.code === 0 && result.stdout.includes(sessionId),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const listed = (
      JSON.parse(awaiting.stdout) as { sessionId: string; status: string; workflowStatus: string }[]
    ).find((entry) => entry.sessionId === sessionId);
    expect(listed).toMatchObject({ status: 'awaiting_approval', workflowStatus: 'RUNNING' });

    const table = await runCli(['sessions', '--status', 'awaiting_approval', ...connection()]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^SESSION +STATUS +WORKFLOW +STARTED +TOKENS +UI$/);
    expect(table.stdout).toMatch(
      new RegExp(`^${escape(sessionId)} +awaiting_approval +RUNNING +\\S+ +0 +${escape(sessionUrl(sessionId))}$`, 'm'),
    );

    const idle = await runCli(['sessions', '--status', 'idle', '--json', ...connection()]);
    expect(idle.code).toBe(0);
    expect((JSON.parse(idle.stdout) as { sessionId: string }[]).map((entry) => entry.sessionId)).not.toContain(
      sessionId,
    );

    const bad = await runCli(['sessions', '--status', 'sleeping', ...connection()]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(stderrLines(bad)).toEqual([expect.stringMatching(/^toolrail sessions: --status must be one of idle, /)]);
  });

  it('deny: an unknown call id is refused (exit 2, one line) and nothing changes', async () => {
    const { sessionId, session } = await startSessionAwaitingApproval();
    const before = await sessionSnapshot(session);
    const denied = await runCli(['deny', sessionId, 'call_that_does_not_exist', '--reason', 'no', ...connection()]);
    expect(denied.code).toBe(2);
    expect(denied.stdout).toBe('');
    const pendingId = before.state.pendingApprovals[0]?.callId ?? '';
    expect(stderrLines(denied)).toEqual([
      `toolrail deny: approveToolCall refused: no call call_that_does_not_exist waits for approval; waiting: ${pendingId}`,
    ]);
    // The update was rejected by its validator: not even an event in the history.
    expect(await sessionSnapshot(session)).toEqual(before);
  });

  it('approve: the pending refund runs and the run goes on to its end', async () => {
    const { sessionId, session } = await startSessionAwaitingApproval();
    const [pending] = (await session.ruleState()).pendingApprovals;
    const callId = pending?.callId ?? '';
    const approved = await runCli(['approve', sessionId, callId, '--reason', approvalReason, ...connection()]);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(`approved ${callId} in ${sessionId}\n`);
    const status = await untilRunEnded(session);
    expect(status.lastRunEnd).toBe('terminal');
    expect(status.lastTool).toBe('close_ticket');
    expect((await session.ruleState()).rules.forbidden.map(({ tool }) => tool)).toEqual(['issue_refund']);

    // Deciding the same call again is refused the same way.
    const again = await runCli(['approve', sessionId, callId, ...connection()]);
    expect(again.code).toBe(2);
    expect(stderrLines(again)).toEqual([
      `toolrail approve: approveToolCall refused: call ${callId} was already decided`,
    ]);
  });

  it('follow: prints the live feed as the session runs, and exits 0 when the session ends', async () => {
    const { sessionId, session } = await startIdleSession();
    const following = runCli(['follow', sessionId, ...connection()], { timeoutMs: 120_000 });
    await session.send(firstMessage);
    const [pending] = (await untilApprovalPending(session)).pendingApprovals;
    await session.approve(pending?.callId ?? '', approvalReason);
    await untilRunEnded(session);
    await session.end();
    const followed = await following;
    expect(followed.stderr).toBe('');
    expect(followed.code).toBe(0);
    const lines = followed.stdout.split('\n');
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    const order = [
      /^\[turn 0\] run 1 begins: ada@example\.com says order ORD-1001/,
      /^\[turn 0\] +✗ check_eligibility refused: \[prerequisite_not_met\] .*\(call first: lookup_customer\)/,
      /^\[turn 4\] +\? issue_refund\(\{"order_id":"ORD-1001","amount":42\}\) waits for approval/,
      new RegExp(`^\\[turn 4\\] +✓ ${escape(pending?.callId ?? '')} approved by a human: ${escape(approvalReason)}`),
      /^\[turn 4\] +→ issue_refund: /,
      /^\[turn 6\] run 1 ended: terminal$/,
      /^the session completed$/,
    ].map(at);
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    // From an offset, as JSON lines: the same events, from there on.
    const fromThree = await runCli(['follow', sessionId, '--from', '3', '--json', ...connection()]);
    expect(fromThree.code).toBe(0);
    const events = fromThree.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { offset: number; type: string });
    expect(events[0]?.offset).toBe(3);
    expect(events.map((event) => event.offset)).toEqual(events.map((_, index) => 3 + index));
    expect(events.at(-1)?.type).toBe('session_ended');
    const bad = await runCli(['follow', sessionId, '--from', 'soon', ...connection()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("toolrail follow: --from must be a feed offset (0, 1, 2, …), got 'soon'\n");
  });

  it('transcript: prints the session turn by turn, refusals with reasons, the approval and the results', async () => {
    const { sessionId, session } = await startEndedRun();
    const entries = await session.transcript();
    const printed = await runCli(['transcript', sessionId, ...connection()]);
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(`${entries.map(renderTranscriptEntry).join('\n')}\n`);
    const lines = printed.stdout.split('\n');
    expect(lines).toContain(`[turn 0] user: ${firstMessage}`);
    // (Turn numbers are the session's; the checks below name the events, in the order they happened.)
    const index = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    const order = [
      index(
        /^\[turn \d+\] {3}✗ check_eligibility refused: \[prerequisite_not_met\] .*\(call first: lookup_customer\)$/,
      ),
      index(/^\[turn \d+\] {3}→ lookup_customer: .*ORD-1001/),
      index(/^\[turn \d+\] {3}✗ issue_refund refused: \[resource_mismatch\] .*ORD-1002/),
      index(/^\[turn \d+\] {3}✓ issue_refund approved by a human: refund ok, signed off by the CLI test$/),
      index(/^\[turn \d+\] {3}→ issue_refund: .*"order_id":"ORD-1001"/),
      index(/^\[turn \d+\] {3}→ close_ticket: /),
      index(/^\[turn \d+\] run ended: terminal$/),
    ];
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const asJson = await runCli(['transcript', sessionId, '--json', ...connection()]);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual(entries);
  });

  it('lint and simulate: a broken rules file fails with exit 2 and one line naming the file and the place', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-cli-'));
    try {
      const broken = path.join(dir, 'broken.yaml');
      writeFileSync(
        broken,
        [
          'toolrail: 1',
          'rules:',
          '  - kind: requires',
          '    tool: a',
          '    after: [b]',
          '  - kind: max_count',
          '    tool: a',
          '    limit: -1',
          '',
        ].join('\n'),
      );
      const valid = path.join(dir, 'valid.yaml');
      writeFileSync(
        valid,
        ['toolrail: 1', 'rules:', '  - kind: requires', '    tool: a', '    after: [b]', ''].join('\n'),
      );
      const trace = path.join(dir, 'trace.json');
      writeFileSync(trace, JSON.stringify({ tools: ['a', 'b'], events: [{ user: 'go' }, { calls: [{ tool: 'a' }] }] }));
      const place = new RegExp(`^${escape(broken)}:8 \\(rules\\[1\\]\\.limit\\): .+ — .+$`);

      const lint = await runCli(['lint', '--rules', broken, '--tools', 'a,b']);
      expect(lint.code).toBe(2);
      expect(stderrLines(lint)).toEqual([expect.stringMatching(place)]);
      expect(lint.stdout).toBe('1 error, 0 warnings\n');

      const simulate = await runCli(['simulate', '--rules', broken, '--trace', trace]);
      expect(simulate.code).toBe(2);
      expect(stderrLines(simulate)).toEqual([expect.stringMatching(place)]);
      expect(simulate.stdout).toBe('');

      // The same commands on a valid file: exit 0, and simulate reports the refused call.
      const lintValid = await runCli(['lint', '--rules', valid, '--tools', 'a,b']);
      expect(lintValid).toMatchObject({ code: 0, stdout: 'ok: 1 rules, 0 warnings\n' });
      const simulateValid = await runCli(['simulate', '--rules', valid, '--trace', trace]);
      expect(simulateValid.code).toBe(0);
      const events = simulateValid.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { calls?: { tool: string; verdict: string }[] });
      expect(events[1]?.calls).toEqual([expect.objectContaining({ tool: 'a', verdict: 'blocked' })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage errors exit 2 with one line', async () => {
    const missing = await runCli(['state']);
    expect(missing.code).toBe(2);
    expect(stderrLines(missing)[0]).toBe('toolrail state: missing arguments (see --help)');
    const unknown = await runCli(['stat', 'session-1']);
    expect(unknown.code).toBe(2);
    expect(stderrLines(unknown)).toEqual(["toolrail: unknown command 'stat'. Run `toolrail --help` for the list."]);
  });

  /** What must not change when a command is refused: the rule state, the status and the history length. */
  async function sessionSnapshot(
    session: SessionHandle,
  ): Promise<{ state: SessionRuleStateView; status: unknown; historyLength: number }> {
    const [state, status, history] = await Promise.all([
      session.ruleState(),
      session.status(),
      session.workflow.fetchHistory(),
    ]);
    return { state, status, historyLength: history.events?.length ?? 0 };
  }
});

/** Waits until the session's run stopped at a call that waits for approval; returns the rule state then. */
function untilApprovalPending(session: SessionHandle): Promise<SessionRuleStateView> {
  return pollUntil(
    () => session.ruleState(),
    (s) => s.pendingApprovals.length > 0,
    { timeoutMs: 60_000 },
  );
}

/** The feed offset of the session's latest `message_received` event. */
async function feedOffsetOfLastMessage(session: SessionHandle): Promise<number> {
  let offset = -1;
  const stop = new AbortController();
  for await (const event of session.events({ signal: stop.signal })) {
    if (event.type === 'message_received') offset = event.offset;
    if (event.type === 'run_ended' && event.run === 2) stop.abort();
  }
  return offset;
}

/** Waits until the session's run ended and the session waits for a message again. */
function untilRunEnded(session: SessionHandle): Promise<SessionStatusView> {
  return pollUntil(
    () => session.status(),
    (s) => s.status === 'idle' && s.lastRunEnd !== null,
    { timeoutMs: 60_000 },
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
