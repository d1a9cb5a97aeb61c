/**
 * The errors every part shares: the `ToolrailError` base (a stable `code`, a cross-realm
 * `isInstance`) and what a session learns of a stored claim it can never read. Pure and
 * deterministic, imports no other part: every part, the workflow included, may import it.
 * @module
 */
export { ToolrailError } from './toolrail-error';
export type { ToolrailErrorOptions } from './toolrail-error';
export { unreadableClaimEncoding, unreadableResultFailureType } from './unreadable-claim';
export type { UnreadableClaim, UnreadableClaimCode } from './unreadable-claim';
