import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { RuleDiagnostic } from '../rules/index';
import type { ParseSourceResult } from './parse-source-text';
import { parseSourceText } from './parse-source-text';

/** Largest rules or trace file read, in bytes: 20 MiB. */
export const maxSourceFileBytes = 20 * 1024 * 1024;

/** A diagnostic for a file that could not be read at all. */
export function unreadableFile(file: string, error: unknown): RuleDiagnostic {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const problem =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EISDIR'
        ? 'is a directory'
        : `cannot read it (${code || String(error)})`;
  return { severity: 'error', code: 'unreadable', file, path: '', problem, fix: 'check the path' };
}

function tooLarge(file: string): RuleDiagnostic {
  return {
    severity: 'error',
    code: 'too-large',
    file,
    path: '',
    problem: `the file is larger than ${maxSourceFileBytes} bytes`,
    fix: 'split it into smaller files',
  };
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Whether a path names something that is not a regular file, as a diagnostic; `null` for a regular file. */
function refuseNonRegular(file: string, stats: Stats): RuleDiagnostic | null {
  if (stats.isFile()) return null;
  return {
    severity: 'error',
    code: 'not-a-file',
    file,
    path: '',
    problem: `is ${kindOf(stats)}, not a regular file`,
    fix: 'pass a rules file or a directory of rules files',
  };
}

/**
 * Reads at most `maxSourceFileBytes + 1` bytes of a regular file, so a file that grows after `stat`
 * still cannot exhaust memory. `null` when the cap was exceeded.
 */
async function readCapped(file: string): Promise<Buffer | null> {
  const handle = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxSourceFileBytes) return null;
      chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/**
 * Reads and parses one YAML or JSON file with positions. Only regular files are opened (a named
 * pipe or a device is refused after `stat`, before opening), the size is checked first, and the
 * read itself stops after {@link maxSourceFileBytes}.
 */
export async function readSourceFile(file: string): Promise<ParseSourceResult> {
  let text: string;
  try {
    const stats = await stat(file);
    const refused = refuseNonRegular(file, stats);
    if (refused !== null) return { ok: false, error: refused };
    if (stats.size > maxSourceFileBytes) return { ok: false, error: tooLarge(file) };
    const buffer = await readCapped(file);
    if (buffer === null) return { ok: false, error: tooLarge(file) };
    text = buffer.toString('utf8');
  } catch (error) {
    return { ok: false, error: unreadableFile(file, error) };
  }
  return parseSourceText(file, text);
}
