import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { simulateCommand } from '../../../src/cli/commands/simulate';
import { transcriptCommand } from '../../../src/cli/commands/transcript';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { simulateTrace, traceSchemas } from '../../../src/rules';
import type { SimulationLine } from '../../../src/rules';
import { createSupportDeskTools } from '../../../examples/support-desk/support-desk-tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { testContentDirectory, withSessionWorker } from '../../helpers/session-worker';
import { entriesOf } from '../../helpers/transcript-entries';
import { scratchDirectory } from '../../helpers/scratch-directory';

const rulesFile = path.resolve(__dirname, '../../../examples/support-desk/support-desk-rules.yaml');

/** The support desk rules with two changes: assigning needs no ticket first, and one search per run. */
const changedRules = `
toolrail: 1
rules:
  - kind: requires
    tool: close_ticket
    after: [create_ticket]
  - kind: max_count
    tool: search_knowledge_base
    limit: 1
    scope: run
  - kind: terminal
    tool: close_ticket
`;

/** Every simulated call as `tool:verdict:reason codes`, in order. */
function simulatedVerdicts(lines: readonly SimulationLine[]): string[] {
  return lines.flatMap((line) =>
    line.type === 'calls'
      ? line.calls.map((call) => `${call.tool}:${call.verdict}:${call.reasons.map((r) => r.code).join(',')}`)
      : [],
  );
}

describe('a recorded session exported as a trace', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('simulates to the session’s own verdicts under its rules, and shows what changed rules would refuse', async () => {
    const model = createScriptedModel([
      toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
      toolCallResponse('create_ticket', { customer: 'ada@example.com', subject: 'Broken mug' }),
      toolCallResponse('search_knowledge_base', { query: 'broken mug' }),
      toolCallResponse('search_knowledge_base', { query: 'mug replacement' }),
      toolCallResponse('search_knowledge_base', { query: 'mug refund' }),
      toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }),
      textResponse('Ticket T-0001 is assigned to Sam.'),
    ]);
    const rules = compileRules(readFileSync(rulesFile, 'utf8'), { file: rulesFile });
    await withSessionWorker(
      { connections, tools: createSupportDeskTools(), scriptedModels: { desk: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('export-trace'),
          rules,
          model: { provider: 'scripted', model: 'desk' },
          firstMessage: 'Open a ticket for ada@example.com about a broken mug and assign it to Sam.',
          limits: { closeWhenIdle: true },
        });
        await session.result();
        const transcript = await session.transcript();
        const trace = await session.exportTrace();

        // What `toolrail simulate` reads: the trace parses with its schema.
        expect(traceSchemas().trace.parse(JSON.parse(JSON.stringify(trace)))).toEqual(trace);
        expect(trace.events[0]).toEqual({
          user: 'Open a ticket for ada@example.com about a broken mug and assign it to Sam.',
        });
        expect(trace.events.at(-1)).toEqual({ text: 'Ticket T-0001 is assigned to Sam.' });

        const sessionVerdicts = entriesOf(transcript, 'verdict').map(
          (entry) => `${entry.tool}:${entry.verdict}:${entry.reasons.map((r) => r.code).join(',')}`,
        );
        expect(sessionVerdicts).toEqual([
          'assign_ticket:blocked:prerequisite_not_met',
          'create_ticket:allowed:',
          'search_knowledge_base:allowed:',
          'search_knowledge_base:allowed:',
          'search_knowledge_base:blocked:max_count_reached',
          'assign_ticket:allowed:',
        ]);

        const same = simulateTrace(rules, trace);
        expect(simulatedVerdicts(same.lines)).toEqual(sessionVerdicts);
        // Reasons reproduce word for word, and so does what each turn showed the model.
        const simulatedReasons = same.lines.flatMap((line) =>
          line.type === 'calls'
            ? line.calls.flatMap((call) =>
                call.reasons.map(({ code, message, callFirst }) => ({
                  code,
                  message,
                  ...(callFirst ? { callFirst } : {}),
                })),
              )
            : [],
        );
        expect(simulatedReasons).toEqual(entriesOf(transcript, 'verdict').flatMap((entry) => entry.reasons));
        expect(same.lines.flatMap((line) => (line.type === 'user' ? [] : [line.visible]))).toEqual(
          entriesOf(transcript, 'model').map((entry) => [...entry.visible].sort()),
        );

        // The same through the CLI: `toolrail transcript --trace FILE`, then `toolrail simulate`.
        const file = path.join(scratchDirectory('toolrail-trace-'), 'session.trace.json');
        const connection = ['--address', inject('temporalAddress'), '--namespace', connections.namespace];
        // The CLI reads whole results from the store the session's workers use, as a deployment shares one.
        vi.stubEnv('TOOLRAIL_CONTENT_STORE', testContentDirectory());
        expect(await transcriptCommand.run([session.sessionId, ...connection, '--trace', file])).toBe(0);
        expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(trace);
        const printed: string[] = [];
        const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
          printed.push(String(chunk));
          return true;
        });
        try {
          // `--trace` with no FILE (last) prints the trace on stdout.
          expect(await transcriptCommand.run([session.sessionId, ...connection, '--trace'])).toBe(0);
          expect(JSON.parse(printed.splice(0).join(''))).toEqual(trace);
          expect(await simulateCommand.run(['--rules', rulesFile, '--trace', file])).toBe(0);
        } finally {
          write.mockRestore();
          vi.unstubAllEnvs();
        }
        const cliLines = printed
          .join('')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as SimulationLine);
        expect(simulatedVerdicts(cliLines)).toEqual(sessionVerdicts);

        const changed = simulateTrace(compileRules(changedRules, { catalog: trace.tools }), trace);
        expect(simulatedVerdicts(changed.lines)).toEqual([
          'assign_ticket:allowed:',
          'create_ticket:allowed:',
          'search_knowledge_base:allowed:',
          'search_knowledge_base:blocked:max_count_reached',
          'search_knowledge_base:blocked:max_count_reached',
          'assign_ticket:allowed:',
        ]);
      },
    );
  });
});
