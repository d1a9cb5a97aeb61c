/** The human text of an assistant message: its text, else its calls (`→ name(args)`, space-separated). */
export function assistantMessageText(
  text: string | undefined,
  toolCalls: readonly { readonly name: string; readonly args: unknown }[],
): string {
  if (text) return text;
  return toolCalls.map((call) => `→ ${call.name}(${JSON.stringify(call.args) ?? ''})`).join(' ');
}
