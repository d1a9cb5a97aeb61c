import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/**
 * Exports the README may leave out: what only the CLI and the tests use, on its way off the public
 * surface (none now). A name here that is no longer exported fails the test, so the list shrinks.
 */
const internalExports = new Set<string>([]);

/** Each JavaScript entry of package.json's `exports`, with the source file its types are built from. */
function publicEntries(): { entry: string; source: string }[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  return Object.entries(manifest.exports).flatMap(([entry, target]) => {
    const types = JSON.stringify(target).match(/"\.\/dist\/([^"]+)\.d\.ts"/)?.[1];
    return types === undefined ? [] : [{ entry: path.posix.join('toolrail', entry), source: `${types}.ts` }];
  });
}

/** Every name (values and types) each entry exports, read with the TypeScript compiler. */
function exportedNames(entries: { entry: string; source: string }[]): Map<string, string[]> {
  const config: unknown = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file)).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const files = entries.map(({ source }) => path.join(root, source));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  return new Map(
    entries.map(({ entry, source }) => {
      const file = program.getSourceFile(path.join(root, source));
      const module = file && checker.getSymbolAtLocation(file);
      if (!module) throw new Error(`${source} (the source of ${entry}) is not a module the compiler can read`);
      return [entry, checker.getExportsOfModule(module).map((symbol) => symbol.name)];
    }),
  );
}

/** The identifiers in the README's prose and tables: inside `code spans`, outside fenced blocks. */
function documentedNames(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
  return new Set(spans.flatMap((span) => span.match(/[A-Za-z_$][\w$]*/g) ?? []));
}

/** The members of the union type alias `name` exported by `src/index.ts`, e.g. the feed's event types. */
function unionMembers(name: string): string[] {
  const file = path.join(root, 'src', 'index.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
  const symbol = module && checker.getExportsOfModule(module).find((exported) => exported.name === name);
  if (!symbol) throw new Error(`src/index.ts exports no ${name}`);
  const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
  return (type.isUnion() ? type.types : [type]).flatMap((member) => (member.isStringLiteral() ? [member.value] : []));
}

describe('the README as the reference', () => {
  const entries = publicEntries();
  const exported = exportedNames(entries);
  const documented = documentedNames(readme);

  it('reads every public entry of package.json', () => {
    expect(entries.map(({ entry }) => entry)).toEqual(
      expect.arrayContaining([
        'toolrail',
        'toolrail/client',
        'toolrail/ai-sdk',
        'toolrail/workflow',
        'toolrail/testing',
      ]),
    );
    for (const names of exported.values()) expect(names.length).toBeGreaterThan(0);
  });

  it('names every export of every public entry in its prose or tables', () => {
    const missing = [...exported].flatMap(([entry, names]) =>
      names.filter((name) => !documented.has(name) && !internalExports.has(name)).map((name) => `${entry}: ${name}`),
    );
    expect(missing, 'exports the README does not name (in `code` outside snippets)').toEqual([]);
  });

  it('lists only exported names as internal', () => {
    const all = new Set([...exported.values()].flat());
    expect(
      [...internalExports].filter((name) => !all.has(name)),
      'no longer exported: drop them from the list',
    ).toEqual([]);
  });

  it('lists every type of event the live feed has in its table', () => {
    const types = unionMembers('FeedEventType');
    expect(types.length).toBeGreaterThan(20);
    const table = readme.slice(readme.indexOf('| `type` | what happened |'));
    const rows = table.slice(0, table.indexOf('\n\n'));
    expect(types.filter((type) => !rows.includes(`\`${type}\``))).toEqual([]);
  });
});
