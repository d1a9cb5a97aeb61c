import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
/** The docs the README links to: their TypeScript snippets are compiled with the README's. */
const docs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name: name.replace(/\.md$/, ''), markdown: readFileSync(path.join(root, 'docs', name), 'utf8') }));

/** The README's ```ts blocks; a block whose first line is `// NAME.ts` is written as that file (others import it). */
function typescriptSnippets(markdown: string, prefix = 'snippet'): { file: string; code: string }[] {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.map((code, index) => {
    const named = /^\/\/ ([\w-]+)\.ts\b/.exec(code);
    return { file: `${named?.[1] ?? `${prefix}-${index + 1}`}.ts`, code };
  });
}

/** The repository's compiler options, with `toolrail` resolving to its sources (as a user's resolves to the package). */
function compilerOptions(): ts.CompilerOptions {
  const config: unknown = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file)).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return {
    ...options,
    noUnusedLocals: false,
    paths: {
      toolrail: [path.join(root, 'src', 'index.ts')],
      'toolrail/testing': [path.join(root, 'src', 'testing.ts')],
      'toolrail/ai-sdk': [path.join(root, 'src', 'ai-sdk-entry.ts')],
      'toolrail/workflow': [path.join(root, 'src', 'workflow-entry.ts')],
      'toolrail/client': [path.join(root, 'src', 'client-entry.ts')],
    },
  };
}

describe('the TypeScript snippets of the README and the docs', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-readme-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('typecheck against the public API, importing toolrail', { timeout: 120_000 }, () => {
    const snippets = [
      ...typescriptSnippets(readme),
      // A docs snippet that names its file (`// NAME.ts`) is a whole file; the others are fragments of one.
      ...docs.flatMap(({ name, markdown }) =>
        typescriptSnippets(markdown, name).filter((snippet) => !snippet.file.startsWith(`${name}-`)),
      ),
    ];
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    expect(new Set(snippets.map((snippet) => snippet.file)).size).toBe(snippets.length);
    for (const snippet of typescriptSnippets(readme)) expect(snippet.code).toMatch(/from 'toolrail(\/[\w-]+)?'/);
    for (const snippet of snippets) expect(snippet.code).not.toMatch(/from '\.\.?\/src/);
    symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'), 'junction');
    const files = snippets.map((snippet) => {
      const file = path.join(directory, snippet.file);
      writeFileSync(file, snippet.code);
      return file;
    });
    const program = ts.createProgram(files, compilerOptions());
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) =>
      ts.formatDiagnostic(diagnostic, {
        ...ts.sys,
        getCanonicalFileName: (name) => name,
        getNewLine: () => '\n',
        getCurrentDirectory: () => directory,
      }),
    );
    expect(problems).toEqual([]);
  });
});
