import type { JsonValue } from '../../dispatch';
import { isJsonObject } from '../schema/is-json-object';

/**
 * The output of an MCP tool result as the model should read it: its `structuredContent` when there is
 * one, else its content blocks as text (text as is; images, audio and resources as short markers, so
 * base64 never floods the context).
 */
export function renderMcpContent(result: { content?: unknown; structuredContent?: unknown }): JsonValue {
  if (isJsonObject(result.structuredContent)) return result.structuredContent;
  const blocks = Array.isArray(result.content) ? result.content : [];
  return blocks.map(renderBlock).join('\n');
}

function renderBlock(block: unknown): string {
  if (!isJsonObject(block)) return '[unreadable content]';
  const { type } = block;
  if (type === 'text' && typeof block['text'] === 'string') return block['text'];
  if (type === 'image' || type === 'audio') {
    const size = typeof block['data'] === 'string' ? block['data'].length : 0;
    return `[${type}: ${textOf(block['mimeType'] ?? 'unknown type')}, ${size} base64 characters]`;
  }
  if (type === 'resource' && isJsonObject(block['resource'])) {
    const resource = block['resource'];
    return typeof resource['text'] === 'string' ? resource['text'] : `[resource: ${textOf(resource['uri'])}]`;
  }
  if (type === 'resource_link') return `[resource link: ${textOf(block['uri'])}]`;
  return `[${textOf(type)} content]`;
}

function textOf(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}
