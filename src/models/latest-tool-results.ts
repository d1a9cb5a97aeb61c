import type { ToolResultMessage } from './conversation-message';
import type { ModelRequest } from './model-request';

/**
 * The tool results that answer the last assistant turn of `request` (empty when none): what a
 * scripted step function looks at to react to a refused or failed call.
 */
export function latestToolResults(request: ModelRequest): ToolResultMessage[] {
  const results: ToolResultMessage[] = [];
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (!message || message.role === 'assistant') break;
    if (message.role === 'tool') results.unshift(message);
  }
  return results;
}
