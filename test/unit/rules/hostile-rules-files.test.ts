import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from './support/fixtures';
import { lines, toolrail } from './support/run-toolrail';

/** A YAML document whose aliases expand to 9^5 values. */
const aliasBomb = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
  '',
].join('\n');

const hostile: Record<string, string> = {};
let dir = '';

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolrail-hostile-'));
  hostile['an alias bomb'] = join(dir, 'bomb.yaml');
  await writeFile(hostile['an alias bomb'], aliasBomb);
  hostile['a character device'] = '/dev/zero';
  hostile['a named pipe'] = join(dir, 'pipe.yaml');
  execFileSync('mkfifo', [hostile['a named pipe']]);
  hostile['a 2 GiB sparse file'] = join(dir, 'huge.yaml');
  await writeFile(hostile['a 2 GiB sparse file'], '');
  await truncate(hostile['a 2 GiB sparse file'], 2 * 1024 * 1024 * 1024);
  hostile['an empty directory'] = join(dir, 'empty');
  await mkdir(hostile['an empty directory']);
});

const commands: Record<string, (rules: string) => string[]> = {
  lint: (rules) => ['lint', '--rules', rules],
  simulate: (rules) => ['simulate', '--rules', rules, '--trace', fixture('traces/spec-example.trace.json')],
  start: (rules) => ['start', '--rules', rules, '--model', 'scripted:none'],
};

const cases = ['an alias bomb', 'a character device', 'a named pipe', 'a 2 GiB sparse file', 'an empty directory'];

describe.each(Object.keys(commands))('toolrail %s with a hostile --rules path (process)', (command) => {
  it.each(cases)('%s exits 2 with one line naming the path', async (name) => {
    const path = hostile[name] ?? '';
    const result = await toolrail(...(commands[command] ?? (() => []))(path));
    expect(result.code).toBe(2);
    const errorLines = lines(result.stderr);
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]?.startsWith(`${path}:`)).toBe(true);
    expect(errorLines[0]).toContain(' — ');
    expect(result.stderr).not.toContain('    at ');
  });
});
