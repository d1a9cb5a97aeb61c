import { formatDiagnostic } from '../rules';
import { loadRuleSet, ruleFormatChoices } from '../rules-files';
import { checkSessionInput, refusedInputMessage } from '../session';
import type { SessionInput } from '../session';
import { ExitCode } from './cli-command';
import { readRulesOptions } from './read-rules-options';
import { reportBadInput } from './report-bad-input';

/** The options `toolrail start` and `toolrail input` take to build a session's start input. */
export const startInputFlags = {
  rules: { type: 'string', multiple: true },
  format: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  tools: { type: 'string' },
  system: { type: 'string' },
  message: { type: 'string' },
  'non-interactive': { type: 'boolean' },
  'approval-timeout': { type: 'string' },
  'close-when-idle': { type: 'boolean' },
} as const;

/** Their help lines. */
export const startInputFlagsHelp = `  --rules PATH          rules file or contract directory (repeatable; formats as in \`toolrail lint\`)
  --format F            ${ruleFormatChoices.join('|')} (default auto)
  --model P:M|ID        openai:MODEL (chat completions), openai-responses:MODEL, anthropic:MODEL,
                        scripted:NAME, or the ID of a model the workers were given (default $TOOLRAIL_MODEL)
  --base-url URL        an OpenAI- or Anthropic-compatible server (with PROVIDER:MODEL)
  --tools a,b,c         tools of the worker this session may use (default: all); rules are checked against them
  --system TEXT         system prompt
  --message TEXT        first user message (else the session waits for one)
  --non-interactive     calls that need approval are denied instead of waiting
  --approval-timeout MS how long a call waits for approval (default 3600000)
  --close-when-idle     end the session when a run ends and nothing is queued`;

/** The values of {@link startInputFlags} as `parseArgs` gives them. */
export interface StartInputValues {
  rules?: string[];
  format?: string;
  model?: string;
  'base-url'?: string;
  tools?: string;
  system?: string;
  message?: string;
  'non-interactive'?: boolean;
  'approval-timeout'?: string;
  'close-when-idle'?: boolean;
}

/**
 * Loads and compiles the rules files and builds the start input the options describe, checked as
 * the workflow checks it. Warnings and problems go to stderr; a problem gives the exit code (2).
 */
export async function buildStartInput(
  command: string,
  values: StartInputValues,
): Promise<{ ok: true; input: SessionInput } | { ok: false; exitCode: number }> {
  const rules = readRulesOptions(command, values.rules, values.format);
  if (!rules.ok) return rules;
  const modelText = values.model ?? process.env.TOOLRAIL_MODEL;
  if (!modelText)
    return fail(
      reportBadInput(
        `toolrail ${command}: give --model PROVIDER:MODEL (openai, openai-responses, anthropic, scripted) or a model ID`,
      ),
    );
  const model = modelSettingsOf(modelText, values['base-url']);
  if (typeof model === 'string') return fail(reportBadInput(`toolrail ${command}: ${model}`));
  const tools = values.tools
    ?.split(',')
    .map((tool) => tool.trim())
    .filter(Boolean);
  const loaded = await loadRuleSet({ paths: rules.paths, format: rules.format, ...(tools ? { catalog: tools } : {}) });
  for (const warning of loaded.warnings) process.stderr.write(`${formatDiagnostic(warning)}\n`);
  if (!loaded.ok) {
    for (const error of loaded.errors) process.stderr.write(`${formatDiagnostic(error)}\n`);
    return fail(ExitCode.badInput);
  }
  const timeoutText = values['approval-timeout'];
  const approvalTimeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
  if (approvalTimeoutMs !== undefined && !(Number.isInteger(approvalTimeoutMs) && approvalTimeoutMs > 0))
    return fail(reportBadInput(`toolrail ${command}: --approval-timeout must be a positive whole number of ms`));
  const limits = {
    ...(approvalTimeoutMs !== undefined ? { approvalTimeoutMs } : {}),
    ...(values['close-when-idle'] ? { closeWhenIdle: true } : {}),
  };
  const checked = checkSessionInput({
    rules: loaded.rules,
    model,
    ...(tools ? { tools } : {}),
    ...(values.system ? { systemPrompt: values.system } : {}),
    ...(values.message ? { firstMessage: values.message } : {}),
    ...(values['non-interactive'] ? { interactive: false } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  });
  if (!checked.ok) return fail(reportBadInput(`toolrail ${command}: ${refusedInputMessage(checked.problems)}`));
  return { ok: true, input: checked.input };
}

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

function fail(exitCode: number): { ok: false; exitCode: number } {
  return { ok: false, exitCode };
}
