// `npm run build`: compiles the package (src, workflows, activities) and the examples into dist/
// with tsconfig.build.json (CommonJS), copies the dev server's supervisor beside its compiled code,
// and writes dist/esm/: for each entry an ES module that re-exports the CommonJS build, so `import`
// gets native ES modules and one copy of every class (no dual-package hazard). An entry's names are
// read from its compiled text by cjs-module-lexer (the parser Node itself uses to find a CommonJS
// module's names), so the build loads none of its dependencies: `toolrail/ai-sdk` needs `ai`, an
// optional peer dependency that a production install may lack.
// `--out-dir DIR` builds into DIR instead (the production tier builds the image's dist/ this way,
// without touching the repository's). The examples import `toolrail`, `toolrail/client` and `toolrail/testing`: the
// build resolves them to the sources, and at run time Node resolves them to the package itself
// (a package may import itself by its name through its `exports`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { init as initLexer, parse as parseCommonJs } from 'cjs-module-lexer';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
const outDir = path.resolve(root, values['out-dir'] ?? 'dist');

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', outDir], {
  stdio: 'inherit',
});
copyFileSync(
  path.join(root, 'src/devserver/supervise-server.cjs'),
  path.join(outDir, 'src/devserver/supervise-server.cjs'),
);

/** The package's entries served to `import` (package.json `exports`), by the CommonJS file each re-exports. */
const esmEntries = {
  index: 'src/index.js',
  client: 'src/client-entry.js',
  testing: 'src/testing.js',
  'ai-sdk': 'src/ai-sdk-entry.js',
};
await initLexer();
mkdirSync(path.join(outDir, 'esm'), { recursive: true });
for (const [name, file] of Object.entries(esmEntries)) {
  // Named, so that the module exports exactly the entry's names (not `__esModule` or `module.exports`).
  const { exports, reexports } = parseCommonJs(readFileSync(path.join(outDir, file), 'utf8'));
  if (reexports.length > 0)
    throw new Error(`${file} re-exports whole modules (${reexports.join(', ')}): name each export`);
  const names = exports.filter((exported) => exported !== '__esModule').sort();
  writeFileSync(path.join(outDir, 'esm', `${name}.mjs`), `export {\n  ${names.join(',\n  ')},\n} from '../${file}';\n`);
  writeFileSync(path.join(outDir, 'esm', `${name}.d.mts`), `export * from '../${file}';\n`);
}
