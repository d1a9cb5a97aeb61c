#!/usr/bin/env node
// The `toolrail` command. Installed, it runs the compiled CLI (dist/) with plain Node. In toolrail's
// own repository (where src/ sits next to bin/) it runs the TypeScript sources through tsx, so no
// build step is needed there; tsx forwards signals (Ctrl-C) to the process it starts.
const fs = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, '..', 'src', 'cli', 'main.ts');
if (fs.existsSync(source)) {
  process.argv.splice(2, 0, source);
  import('tsx/cli');
} else {
  require(path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js'));
}
