import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');

/** One ```ts block of a Markdown file, as the file it is written to. */
export interface TypescriptSnippet {
  readonly file: string;
  readonly code: string;
}

/** A Markdown text's ```ts blocks; a block whose first line is `// NAME.ts` is written as that file (others import it). */
export function typescriptSnippets(markdown: string): TypescriptSnippet[] {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.map((code, index) => {
    const named = /^\/\/ ([\w-]+)\.ts\b/.exec(code);
    return { file: `${named?.[1] ?? `snippet-${index + 1}`}.ts`, code };
  });
}

/** The repository's compiler options, with `toolrail` and its entries resolving to their sources (as a user's resolve to the package). */
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

/**
 * Typechecks snippets together against the public API, in a temporary directory that sees the
 * repository's `node_modules`; returns every diagnostic, formatted (none when they compile).
 */
export function typecheckSnippets(snippets: readonly TypescriptSnippet[]): string[] {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-snippets-'));
  try {
    symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'), 'junction');
    const files = snippets.map((snippet) => {
      const file = path.join(directory, snippet.file);
      writeFileSync(file, snippet.code);
      return file;
    });
    const program = ts.createProgram(files, compilerOptions());
    return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
      ts.formatDiagnostic(diagnostic, {
        ...ts.sys,
        getCanonicalFileName: (name) => name,
        getNewLine: () => '\n',
        getCurrentDirectory: () => directory,
      }),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
