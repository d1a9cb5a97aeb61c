import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The README's ```ts blocks; a block whose first line is `// NAME.ts` is written as that file (others import it). */
function typescriptSnippets(markdown: string): { file: string; code: string }[] {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.map((code, index) => {
    const named = /^\/\/ ([\w-]+)\.ts\b/.exec(code);
    return { file: `${named?.[1] ?? `snippet-${index + 1}`}.ts`, code };
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

describe("the README's TypeScript snippets", () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-readme-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('typecheck against the public API, importing toolrail', { timeout: 120_000 }, () => {
    const snippets = typescriptSnippets(readme);
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    for (const snippet of snippets) {
      expect(snippet.code).toMatch(/from 'toolrail(\/(testing|workflow|client))?'/);
      expect(snippet.code).not.toMatch(/from '\.\.?\/src/);
    }
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
