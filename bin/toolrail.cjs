#!/usr/bin/env node
// Runs the TypeScript CLI with tsx, so the sources are what runs (no build step). tsx forwards
// signals (Ctrl-C) to the process it starts.
const path = require('node:path');
process.argv.splice(2, 0, path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
import('tsx/cli');
