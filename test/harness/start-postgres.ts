import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/devserver/free-port';

/** A throwaway PostgreSQL server: its connection string and how to stop it (removing its directory). */
export interface TestPostgres {
  url: string;
  port: number;
  stop(): void;
}

/** Directory holding `initdb`, `pg_ctl` and `postgres`: PATH first, then `/usr/lib/postgresql/<version>/bin`. */
export function findPostgresBin(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return path.dirname(onPath);
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const bin = path.join(base, version, 'bin');
      if (existsSync(path.join(bin, 'initdb'))) return bin;
    }
  }
  throw new Error(
    'PostgreSQL not found (no initdb on PATH or under /usr/lib/postgresql): apt-get install -y postgresql',
  );
}

/**
 * Starts PostgreSQL in a fresh temporary directory on a free loopback port, trust auth, its unix
 * socket in that directory. As root it runs as the `postgres` user (PostgreSQL refuses root).
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-pg-'));
  const data = path.join(dir, 'data');
  const run = (command: string, args: string[]): void => {
    const full = path.join(bin, command);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    else execFileSync(full, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  let started = false;
  const stop = (): void => {
    if (started) {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
      } catch {
        // Already stopped.
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -F`;
    started = true;
    run('pg_ctl', ['start', '-D', data, '-w', '-l', path.join(dir, 'log'), '-o', options]);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
