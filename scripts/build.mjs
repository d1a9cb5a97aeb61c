// `npm run build`: compiles the package (src, workflows, activities) and the examples into dist/
// with tsconfig.build.json (CommonJS), and copies the dev server's supervisor beside its compiled code.
// `--out-dir DIR` builds into DIR instead (the production tier builds the image's dist/ this way,
// without touching the repository's). The examples import `toolrail` and `toolrail/testing`: the
// build resolves them to the sources, and at run time Node resolves them to the package itself
// (a package may import itself by its name through its `exports`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

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

