/**
 * The wire text of a proposed call's arguments: a raw string (arguments that did not parse) is
 * sent back verbatim, anything else as JSON.
 */
export function serializeToolCallArguments(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}
