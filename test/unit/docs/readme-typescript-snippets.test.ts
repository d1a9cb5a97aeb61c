import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');

/** The README and the pages of `docs/`, whose ```ts blocks are compiled (sketches of internal code are `text`). */
const documents = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file)),
];

/** A document's ```ts blocks; a block whose first line is `// NAME.ts` is written as that file (others import it). */
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

describe('the TypeScript snippets of the README and the docs', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-readme-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('typecheck against the public API, importing toolrail', { timeout: 120_000 }, () => {
    symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'), 'junction');
    const files = documents.flatMap((document) => {
      // Each document's snippets in a folder of its own: they import one another by name, not across documents.
      const snippets = typescriptSnippets(readFileSync(path.join(root, document), 'utf8'));
      if (document === 'README.md') expect(snippets.length).toBeGreaterThanOrEqual(3);
      const folder = path.join(directory, document.replace(/\W/g, '-'));
      mkdirSync(folder);
      return snippets.map((snippet) => {
        expect(snippet.code, `${document}: ${snippet.file}`).toMatch(
          /from 'toolrail(\/(testing|workflow|client|ai-sdk))?'/,
        );
        expect(snippet.code, `${document}: ${snippet.file}`).not.toMatch(/from '\.\.?\/src/);
        const file = path.join(folder, snippet.file);
        writeFileSync(file, snippet.code);
        return file;
      });
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
