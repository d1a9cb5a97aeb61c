import { buildCompiledRuleSetSchema, compiledRuleSetErrors, detectFormat } from '../rules';
import { buildModelSettingsSchema } from '../model-settings';
import { utf8ByteLength } from '../text';
import { zod } from '../rules';
import { describeValue, formatInputPath, problemsOfIssues, readableIssues } from './input-problems';
import type { InputProblem } from './input-problems';
import { undecodableMarker } from './payload-converter';
import type { UndecodablePayload } from './payload-converter';
import { resolveSessionLimits } from './session-input';
import type { SessionInput } from './session-input';

/**
 * Builds the schema of a session's start input (the `agentSession` workflow's one argument), as the
 * client and the workflow check it: `SessionInput` without `carried`, which only continue-as-new sets.
 * Strict: an unknown key is a mistake. `session-input.schema.json` in the package is this schema as
 * JSON Schema. A new one each call: a workflow builds it for the one check of its first run and lets
 * it go (built when the module is evaluated, it would load zod in every worker, and a preloaded zod is
 * frozen by the SDK); {@link sessionStartInputSchema} is the one a process keeps.
 */
export function buildSessionStartInputSchema() {
  const z = zod();
  const positiveInteger = z.number().int().positive();
  const milliseconds = positiveInteger.describe('milliseconds');
  /** `limits` of a session input (see `SessionLimits`): every field optional, none unknown. */
  const sessionLimitsSchema = z.strictObject({
    maxTurnsPerRun: positiveInteger.optional(),
    maxToolConcurrency: positiveInteger.optional(),
    siblingAbort: z.enum(['on-error', 'never']).optional(),
    approvalTimeoutMs: milliseconds.optional(),
    modelTimeoutMs: milliseconds.optional(),
    continueAsNewAfterTurns: positiveInteger.optional(),
    idleTimeoutMs: milliseconds.optional(),
    closeWhenIdle: z.boolean().optional(),
    maxUserMessageBytes: positiveInteger.describe('UTF-8 bytes').optional(),
    continueAsNewAtHistoryBytes: positiveInteger.describe('bytes').optional(),
    feedWindowBytes: positiveInteger.describe('UTF-8 bytes').optional(),
    storeRetryIntervalMs: milliseconds.optional(),
  });

  /** A first user message already in the session's content store (what `ToolrailClient` sends for one over 128 KiB). */
  const firstMessageRefSchema = z.strictObject({
    key: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'expected the SHA-256 of the stored message, lower-case hex')
      .describe("The key the message is stored under in the session's content store: the SHA-256 of its JSON."),
    bytes: z.number().int().nonnegative().describe('UTF-8 bytes of the stored message'),
    preview: z.string().describe('The first characters of the message text (at most 200).'),
    role: z.literal('user'),
  });

  return z.strictObject({
    rules: buildCompiledRuleSetSchema().describe(
      'The compiled rule set (`toolrail input` prints a start input with it; in code, loadRuleSet or compileRuleSet).',
    ),
    tools: z
      .array(z.string().min(1))
      .describe('The tools of the worker this session may use, by name. Defaults to all of them.')
      .optional(),
    model: buildModelSettingsSchema(),
    systemPrompt: z.string().optional(),
    firstMessage: z
      .string()
      .refine((text) => text.trim() !== '', 'the message is empty')
      .describe('The first user message; without it the session waits for one.')
      .optional(),
    firstMessageRef: firstMessageRefSchema
      .describe(
        'Instead of firstMessage: the first user message, already in the content store the workers use (a ToolrailClient with a contentStore sends one over 128 KiB this way).',
      )
      .optional(),
    interactive: z
      .boolean()
      .describe('Interactive sessions wait for a human on `ask`; non-interactive ones deny. Defaults to true.')
      .optional(),
    limits: sessionLimitsSchema.optional(),
    reportToParent: z
      .boolean()
      .describe(
        "A child session's: it signals its parent workflow (toolrailChildSession) when calls wait for approval and when a run ends. toolrail/workflow's startChildSession sets it.",
      )
      .optional(),
    checkedBy: z
      .string()
      .describe(
        'Set by the toolrail client that checked this input: a workflow of the same toolrail version does not check it again. Other clients leave it out.',
      )
      .optional(),
  });
}

let keptStartInputSchema: ReturnType<typeof buildSessionStartInputSchema> | undefined;

/**
 * The start input of a session (the `agentSession` workflow's one argument), as the client and the
 * workflow check it ({@link buildSessionStartInputSchema}), built on first use and kept.
 */
export function sessionStartInputSchema(): ReturnType<typeof buildSessionStartInputSchema> {
  return (keptStartInputSchema ??= buildSessionStartInputSchema());
}

/** The outcome of {@link checkSessionInput}. */
export type SessionInputCheck = { ok: true; input: SessionInput } | { ok: false; problems: InputProblem[] };

/**
 * Checks a session's start input with its schema (`schema`: default the one the process keeps, see
 * {@link sessionStartInputSchema}; a workflow passes one built for the check) and the rules' load-time
 * checks, and lists every problem: no input, `null`, a payload the worker could not decode, unknown
 * keys (with the nearest known one), wrong types, a rules file's content instead of a compiled rule
 * set, a compiled rule set of another format or version, an unknown rule kind, rules that break the
 * load-time checks, a first message over `limits.maxUserMessageBytes`. Deterministic: the client
 * runs it before the start, the workflow at its start (an input this version's client checked, as
 * `checkedBy` says, is not checked again).
 */
export function checkSessionInput(
  value: unknown,
  schema: ReturnType<typeof buildSessionStartInputSchema> = sessionStartInputSchema(),
): SessionInputCheck {
  const whole = wholeInputProblem(value);
  if (whole !== undefined) return { ok: false, problems: [{ path: '', problem: whole }] };
  const { carried, ...record } = value as Record<string, unknown>;
  const shapeProblems = [
    ...(carried === undefined
      ? []
      : [{ path: 'carried', problem: 'set only by continue-as-new: remove it from a start input' }]),
    ...(rulesShapeProblem(record['rules']) ?? []),
  ];
  // Without zod's compiled fast path: a workflow parses one input with a schema built for it, and
  // compiling the parsers (eval) would cost more than the one parse.
  const parsed = schema.safeParse(record, { ...readableIssues, jitless: true });
  if (!parsed.success || shapeProblems.length > 0) {
    // A rules value of the wrong kind is one problem; its details would be noise.
    const rulesWrong = shapeProblems.some(({ path }) => path.startsWith('rules'));
    const issues = (parsed.error?.issues ?? []).filter((issue) => !rulesWrong || issue.path[0] !== 'rules');
    const problems = [...shapeProblems, ...problemsOfIssues(issues, record)];
    // The input's own keys first, then by place: a reader goes through them top to bottom.
    return { ok: false, problems: problems.sort((a, b) => (a.path === b.path ? 0 : a.path < b.path ? -1 : 1)) };
  }
  const input = parsed.data as SessionInput;
  if (input.firstMessage !== undefined && input.firstMessageRef !== undefined)
    return {
      ok: false,
      problems: [{ path: 'firstMessageRef', problem: 'give firstMessage or firstMessageRef, not both' }],
    };
  const problems: InputProblem[] = compiledRuleSetErrors(input.rules).map(({ path, problem, fix }) => ({
    path: formatInputPath(['rules', ...path]),
    problem: fix === undefined ? problem : `${problem} (${fix})`,
  }));
  if (input.firstMessage !== undefined) {
    const limit = resolveSessionLimits(input.limits, undefined, input.interactive).maxUserMessageBytes;
    const bytes = utf8ByteLength(input.firstMessage);
    if (bytes > limit)
      problems.push({
        path: 'firstMessage',
        problem: `the message is ${bytes} bytes (UTF-8); this session takes at most ${limit} bytes (limits.maxUserMessageBytes)`,
      });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, input };
}

/** What is wrong with the input as a whole (absent, `null`, undecodable, not an object), if anything. */
function wholeInputProblem(value: unknown): string | undefined {
  const howTo = 'give one argument, the session input object (`toolrail input` prints one)';
  // Python's None travels as `binary/null`, which arrives as undefined.
  if (value === undefined) return `no start input (none, or None in Python): ${howTo}`;
  if (value === null) return `the start input is null: ${howTo}`;
  if (typeof value === 'object' && undecodableMarker in value) {
    const { encoding, error, claim } = (value as UndecodablePayload)[undecodableMarker];
    if (claim !== undefined)
      return `the start input is an External Storage claim that cannot be read (${claim.code}): ${claim.message}`;
    return `the start input could not be decoded (encoding ${encoding}: ${error}); the workers decode plain JSON (json/plain) and the payload codecs they were given: start the session with the same codecs as the workers`;
  }
  if (typeof value !== 'object' || Array.isArray(value))
    return `the start input must be an object, got ${describeValue(value)}: ${howTo}`;
  return undefined;
}

/**
 * A rules file's content, or a compiled rule set of another format or version, in one problem (its
 * details would be noise).
 */
function rulesShapeProblem(rules: unknown): InputProblem[] | undefined {
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    if (rules === undefined) return undefined;
    const format = detectFormat(rules);
    return format === null ? undefined : [{ path: 'rules', problem: `${fileFormatNote(format)}${compileHint}` }];
  }
  const { format, version } = rules as { format?: unknown; version?: unknown };
  if (format === undefined) {
    const detected = detectFormat(rules);
    if (detected !== null) return [{ path: 'rules', problem: `${fileFormatNote(detected)}${compileHint}` }];
    return undefined;
  }
  if (format !== 'toolrail.compiled-rules')
    return [
      {
        path: 'rules.format',
        problem: `expected "toolrail.compiled-rules", got ${describeValue(format)}: rules must be a compiled rule set${compileHint}`,
      },
    ];
  if (version !== 1)
    return [
      {
        path: 'rules.version',
        problem: `this worker reads compiled rule sets of version 1, got ${describeValue(version)}: compile the rules with the toolrail version the workers run`,
      },
    ];
  return undefined;
}

const compileHint =
  '; compile it first: `toolrail input --rules FILE` prints a ready start input (in code: loadRuleSet or compileRuleSet)';

function fileFormatNote(format: string): string {
  return `this is the content of a ${format} rules file, not a compiled rule set`;
}

/** Where the package ships {@link sessionInputJsonSchema} (and the `$id` it carries). */
export const sessionInputSchemaFile = 'schema/session-input.schema.json';

/**
 * The start input's JSON Schema (draft 2020-12), generated from its zod schema ({@link sessionStartInputSchema}):
 * what other clients validate a start input with. The package ships it as
 * `toolrail/session-input.schema.json`; a test keeps that file equal to this.
 */
export function sessionInputJsonSchema(): Record<string, unknown> {
  const generated = zod().toJSONSchema(sessionStartInputSchema(), { io: 'input' });
  const { $schema, ...rest } = generated as Record<string, unknown>;
  return {
    $schema,
    $id: 'urn:toolrail:session-input',
    title: 'toolrail session start input',
    description:
      'The one argument of the agentSession workflow. Its rules are a compiled rule set: `toolrail input --rules FILE --model PROVIDER:MODEL` prints a complete start input. The workflow checks the input against this schema, and the rules with their load-time checks, before anything runs (unless checkedBy says a toolrail client of its own version checked it).',
    ...rest,
  };
}
