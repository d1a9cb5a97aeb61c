import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { JsonValue } from '../../kernel';

/** Where oversized results go. */
export interface ToolResultOffloadOptions {
  /** Directory for offloaded results (created when needed); one sub-directory per session. */
  readonly directory: string;
  /** Characters of the output the model still sees, capped by `maxResultSizeChars`. Default: 2_000. */
  readonly previewChars?: number;
}

/** The output the model gets after offloading: unchanged, or a preview with where the rest went. */
export interface OffloadedResult {
  readonly output: JsonValue;
  readonly offloadedTo?: string;
  readonly fullSizeChars?: number;
}

/** Default length of the preview of an offloaded result, in characters. */
export const DEFAULT_OFFLOAD_PREVIEW_CHARS = 2_000;

/**
 * Keeps an output that fits in `maxResultSizeChars` (strings measured as they are, other values as
 * compact JSON), and otherwise writes it to `<directory>/<session>/<call>.txt` and returns a preview.
 * File names are derived from the ids, so a retried call overwrites its own file. If writing fails the
 * model still gets the preview, without a path.
 */
export async function offloadToolResult({
  output,
  maxResultSizeChars,
  sessionId,
  callId,
  offload,
}: {
  output: JsonValue;
  maxResultSizeChars: number;
  sessionId: string;
  callId: string;
  offload: ToolResultOffloadOptions;
}): Promise<OffloadedResult> {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  if (text.length <= maxResultSizeChars) return { output };
  const previewChars = Math.min(offload.previewChars ?? DEFAULT_OFFLOAD_PREVIEW_CHARS, maxResultSizeChars);
  const preview = text.slice(0, previewChars);
  const directory = resolve(offload.directory, fileSafe(sessionId));
  const path = join(directory, `${fileSafe(callId)}.txt`);
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(path, text, 'utf8');
    return { output: preview, offloadedTo: path, fullSizeChars: text.length };
  } catch {
    return { output: preview, fullSizeChars: text.length };
  }
}

/** A file-name-safe rendering of an id: readable part plus a short hash, so distinct ids never collide. */
function fileSafe(id: string): string {
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 80);
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}
