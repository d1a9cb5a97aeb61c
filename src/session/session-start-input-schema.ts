import { startInputSchema } from './session-input-schema';

// Apart from its builder: a module the workflow bundle never evaluates (the workflow builds the
// schema only for the check of a session's first run, and lets it go after).

/**
 * The start input of a session (the `agentSession` workflow's one argument), as the client and the
 * workflow check it: `SessionInput` without `carried`, which only continue-as-new sets. Strict: an
 * unknown key is a mistake. `session-input.schema.json` in the package is this schema as JSON Schema.
 */
export const sessionStartInputSchema = startInputSchema();
