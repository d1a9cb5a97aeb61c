import type { ToolSet } from 'ai';
import { AiSdkToolInvalidError } from './errors/ai-sdk-tool-invalid-error';

/**
 * Checks the loop's tools the policy wraps: each is a tool object with an input schema (the AI SDK
 * would quietly give a tool without one an empty schema, and the model could call it with anything).
 *
 * @throws AiSdkToolInvalidError naming the first tool that is not.
 */
export function checkLoopTools(tools: ToolSet): void {
  for (const [name, tool] of Object.entries(tools)) {
    if (tool === null || typeof tool !== 'object') {
      throw new AiSdkToolInvalidError({ toolName: name, problem: 'it is not a tool object' });
    }
    if ((tool as { inputSchema?: unknown }).inputSchema == null) {
      throw new AiSdkToolInvalidError({
        toolName: name,
        problem: 'it has no inputSchema; give it one (a zod object, or jsonSchema({ type: "object", ... }))',
      });
    }
  }
}
