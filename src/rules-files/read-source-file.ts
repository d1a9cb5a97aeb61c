import { readFile } from 'node:fs/promises';
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

/** Reads and parses one YAML or JSON file with positions. */
export async function readSourceFile(file: string): Promise<ParseSourceResult> {
  let text: string;
  try {
    const buffer = await readFile(file);
    if (buffer.byteLength > maxSourceFileBytes) {
      return {
        ok: false,
        error: {
          severity: 'error',
          code: 'too-large',
          file,
          path: '',
          problem: `the file is larger than ${maxSourceFileBytes} bytes`,
          fix: 'split it into smaller files',
        },
      };
    }
    text = buffer.toString('utf8');
  } catch (error) {
    return { ok: false, error: unreadableFile(file, error) };
  }
  return parseSourceText(file, text);
}
