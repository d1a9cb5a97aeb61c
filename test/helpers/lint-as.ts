import path from 'node:path';
import { ESLint } from 'eslint';

/** The repository's root, where eslint.config.mjs is. */
export const repositoryRoot = path.resolve(__dirname, '../..');

/**
 * The rules whose errors ESLint reports for `code` linted as if it were the content of `file` (a
 * path from the repository's root, of an existing file, so the type-aware parser knows it).
 */
export async function lintAs(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repositoryRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repositoryRoot, file) });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => message.ruleId ?? '');
}
