import { formatDiagnostic } from '../../rules';
import { loadRuleSet } from '../../rules-files';
import { ruleFormatChoices } from '../../rules-files';
import type { CliCommand } from '../cli-command';
import type { SessionInput } from '../../session';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { sessionUiUrl } from '../connection/open-client';
import { parseCommandArgs } from '../parse-command-args';
import { readRulesOptions } from '../read-rules-options';
import { reportBadInput } from '../report-bad-input';
import { withClient } from '../with-client';

const usage = `Usage: toolrail start --rules PATH [--rules PATH ...] --model PROVIDER:MODEL|ID [options] [connection flags]

Loads and checks the rules, starts a session on the workers' task queue, and prints its id and
its Temporal Web UI address.
  --rules PATH          rules file or contract directory (repeatable; formats as in \`toolrail lint\`)
  --format F            ${ruleFormatChoices.join('|')} (default auto)
  --model P:M|ID        openai:MODEL (chat completions), openai-responses:MODEL, anthropic:MODEL,
                        scripted:NAME, or the ID of a model the workers were given (default $TOOLRAIL_MODEL)
  --base-url URL        an OpenAI- or Anthropic-compatible server (with PROVIDER:MODEL)
  --tools a,b,c         tools of the worker this session may use (default: all); rules are checked against them
  --system TEXT         system prompt
  --message TEXT        first user message (else the session waits for \`toolrail send\`)
  --session-id ID       session (workflow) id (default: session-<uuid>)
  --non-interactive     calls that need approval are denied instead of waiting
  --approval-timeout MS how long a call waits for approval (default 3600000)
  --close-when-idle     end the session when a run ends and nothing is queued

${connectionFlagsHelp}`;

/** `toolrail start`: start a session. */
export const startCommand: CliCommand = {
  summary: 'start a session with rules files and a first message',
  async run(argv) {
    const parsed = parseCommandArgs(
      'start',
      argv,
      {
        ...connectionFlags,
        rules: { type: 'string', multiple: true },
        format: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        tools: { type: 'string' },
        system: { type: 'string' },
        message: { type: 'string' },
        'session-id': { type: 'string' },
        'non-interactive': { type: 'boolean' },
        'approval-timeout': { type: 'string' },
        'close-when-idle': { type: 'boolean' },
      },
      usage,
    );
    if (!parsed.ok) return parsed.exitCode;
    const values = parsed.values;
    const rules = readRulesOptions('start', values.rules, values.format);
    if (!rules.ok) return rules.exitCode;
    const modelText = values.model ?? process.env.TOOLRAIL_MODEL;
    if (!modelText) {
      return reportBadInput(
        'toolrail start: give --model PROVIDER:MODEL (openai, openai-responses, anthropic, scripted) or a model ID',
      );
    }
    const model = modelSettingsOf(modelText, values['base-url']);
    if (typeof model === 'string') return reportBadInput(`toolrail start: ${model}`);
    const tools = values.tools
      ?.split(',')
      .map((tool) => tool.trim())
      .filter(Boolean);
    const loaded = await loadRuleSet({
      paths: rules.paths,
      format: rules.format,
      ...(tools ? { catalog: tools } : {}),
    });
    for (const warning of loaded.warnings) process.stderr.write(`${formatDiagnostic(warning)}\n`);
    if (!loaded.ok) {
      for (const error of loaded.errors) process.stderr.write(`${formatDiagnostic(error)}\n`);
      return ExitCode.badInput;
    }
    const approvalTimeoutMs = values['approval-timeout'] === undefined ? undefined : Number(values['approval-timeout']);
    if (approvalTimeoutMs !== undefined && !(approvalTimeoutMs > 0))
      return reportBadInput('toolrail start: --approval-timeout must be a positive number of ms');
    const { sessionId, url } = await withClient(values, async ({ toolrail, connection }) => {
      const session = await toolrail.startSession({
        rules: loaded.rules,
        model,
        ...(tools ? { tools } : {}),
        ...(values.system ? { systemPrompt: values.system } : {}),
        ...(values.message ? { firstMessage: values.message } : {}),
        ...(values['session-id'] ? { sessionId: values['session-id'] } : {}),
        ...(values['non-interactive'] ? { interactive: false } : {}),
        limits: {
          ...(approvalTimeoutMs !== undefined ? { approvalTimeoutMs } : {}),
          ...(values['close-when-idle'] ? { closeWhenIdle: true } : {}),
        },
      });
      return { sessionId: session.sessionId, url: sessionUiUrl(connection, session.sessionId) };
    });
    process.stdout.write(`session ${sessionId}\n${url}\n`);
    return ExitCode.ok;
  },
};

type ModelSettings = SessionInput['model'];
type ModelProvider = Extract<ModelSettings, { provider: string }>['provider'];

/** `--model` as model settings: a built-in `PROVIDER:MODEL` (with `--base-url`), else a model id; or what is wrong. */
function modelSettingsOf(text: string, baseUrl: string | undefined): ModelSettings | string {
  const match = /^(openai|openai-responses|anthropic|scripted):(.+)$/.exec(text);
  if (match) {
    const [, provider = '', model = ''] = match;
    return { provider: provider as ModelProvider, model, ...(baseUrl ? { baseUrl } : {}) };
  }
  if (baseUrl) return `--base-url goes with --model PROVIDER:MODEL, not with a model id (${text})`;
  return { id: text };
}
