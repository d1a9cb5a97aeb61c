#!/usr/bin/env node
// Runs a server (`temporal server start-dev ...`, or a test's PostgreSQL) as a child and makes sure
// it never outlives its owner: when the owner's pipe to our stdin closes (the owner exited, crashed or was SIGKILLed), or we are
// told to stop (SIGTERM/SIGINT/SIGHUP), the server is stopped, then killed if it lingers.
'use strict';
const { spawn } = require('node:child_process');

const [executable, ...args] = process.argv.slice(2);
if (!executable) {
  process.stderr.write('usage: supervise-server.cjs EXECUTABLE ARGS...\n');
  process.exit(2);
}

const server = spawn(executable, args, { stdio: ['ignore', 'inherit', 'inherit'] });
let stopping = false;

function stop() {
  if (stopping) return;
  stopping = true;
  if (server.exitCode !== null || server.signalCode !== null) process.exit(0);
  server.kill('SIGTERM');
  setTimeout(() => server.kill('SIGKILL'), 5000).unref();
}

server.on('exit', (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
server.on('error', (error) => {
  process.stderr.write(`could not start ${executable}: ${error.message}\n`);
  process.exit(1);
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
// Belt and braces: if we were re-parented (owner gone) without the pipe closing, stop too.
const owner = process.ppid;
setInterval(() => {
  if (process.ppid !== owner) stop();
}, 1000).unref();
