import type { ConversationMessage } from '../models';
import { previewChars } from '../store';
import { assistantMessageText } from '../session';
import type { ConversationSegment, MessageRef } from '../session';
import { previewOf } from '../text';

/** A message to store: its bytes (UTF-8 JSON) and what its reference says besides the key the store gives it. */
export interface EncodedMessage {
  ref: Omit<MessageRef, 'key'>;
  bytes: Uint8Array;
}

/** Encodes a message for the content store, with its reference but the key (role, size, preview of its text). */
export function encodeMessage(message: ConversationMessage): EncodedMessage {
  const bytes = Buffer.from(JSON.stringify(message), 'utf8');
  const ref = { role: message.role, bytes: bytes.length, preview: previewOf(textOf(message), previewChars) };
  return { ref, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Decodes a stored message; throws when the bytes are not one. */
export function decodeMessage(bytes: Uint8Array): ConversationMessage {
  const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  if (!isMessage(value)) throw new Error('the stored content is not a conversation message');
  return value;
}

/** Encodes a sealed segment of the log (UTF-8 JSON). */
export function encodeSegment(segment: ConversationSegment): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(segment), 'utf8');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes a stored segment; throws when the bytes are not one. */
export function decodeSegment(bytes: Uint8Array): ConversationSegment {
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<ConversationSegment>;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.entries) || value.previous === undefined) {
    throw new Error('the stored content is not a conversation segment');
  }
  return value as ConversationSegment;
}

/** The human text of a message: what the user wrote, the model's text (or its calls), the tool's result. */
export function textOf(message: ConversationMessage): string {
  if (message.role === 'user') return message.text;
  if (message.role === 'tool') return message.content;
  return assistantMessageText(message.text, message.toolCalls);
}

function isMessage(value: unknown): value is ConversationMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { role } = value as { role?: unknown };
  if (role === 'user') return typeof (value as { text?: unknown }).text === 'string';
  if (role === 'tool') return typeof (value as { content?: unknown }).content === 'string';
  return role === 'assistant' && Array.isArray((value as { toolCalls?: unknown }).toolCalls);
}
