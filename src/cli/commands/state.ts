import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { renderRuleState } from '../render/render-rule-state';
import { withSessionClient } from '../with-client';

const usage = `Usage: toolrail state SESSION_ID [--json] [connection flags]

Shows a session's rule state (the ruleState query, as the Temporal UI's Queries tab shows it):
visible tools, hidden tools with their reasons, forbidden tools, counts, sequence positions,
orchestration steps, pending approvals, running calls, tools that cannot run now (their MCP
server is down) with the reason, and, while the session waits for its content store, why (the
store's error, and which key is missing from which store).
  --json   print the ruleState query's JSON, unchanged

${connectionFlagsHelp}`;

/** `toolrail state`: the rule state of a session. */
export const stateCommand: CliCommand = {
  summary: "show a session's rule state (visible/hidden tools with reasons, counts, approvals)",
  async run(argv) {
    const parsed = parseCommandArgs('state', argv, { ...connectionFlags, json: { type: 'boolean' } }, usage, 1);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = ''] = parsed.positionals;
    const output = await withSessionClient('state', parsed.values, sessionId, async ({ toolrail }) => {
      const session = toolrail.getSession(sessionId);
      const state = await session.ruleState();
      if (parsed.values.json) return JSON.stringify(state, null, 2);
      return renderRuleState(sessionId, state, await session.status());
    });
    if (output === undefined) return ExitCode.failure;
    process.stdout.write(`${output.value}\n`);
    return ExitCode.ok;
  },
};
