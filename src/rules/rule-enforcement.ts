/**
 * Whether a rule is enforced (the default) or only reported: a `shadow` rule hides and refuses
 * nothing, but the engine's results say what it would have hidden or refused, with the same reasons.
 * (A rule's field is `enforcement`: `requires` rules already have a `mode`, `all` or `any`.)
 */
export type RuleEnforcement = 'enforce' | 'shadow';
