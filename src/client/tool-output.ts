import type { ToolResultMessage } from '../models';

/**
 * A tool output too large for the conversation: the content store holds it whole under `key`
 * (absent when it could not be stored), `chars` characters long; `preview` is its beginning.
 */
export interface OffloadedToolOutput {
  offloaded: { key?: string; chars: number };
  preview: string;
}

/**
 * The output a stored tool result holds: the value the tool returned, or, when it was offloaded, its
 * preview and where the whole output is. An error result's value is its message. Results stored
 * before toolrail marked how their text holds the output give their text.
 */
export function toolOutputOf(message: ToolResultMessage): unknown {
  if (message.offloaded !== undefined) {
    const { preview, chars, key } = message.offloaded;
    const offloaded: OffloadedToolOutput = { offloaded: { ...(key === undefined ? {} : { key }), chars }, preview };
    return offloaded;
  }
  return message.json === true ? (JSON.parse(message.content) as unknown) : message.content;
}
