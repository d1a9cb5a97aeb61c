import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/devserver/free-port';

/** A throwaway PostgreSQL server: its connection string, how to restart it, and how to stop it (removing its directory). */
export interface TestPostgres {
  url: string;
  port: number;
  /** Directory holding `psql` and the server's other programs. */
  bin: string;
  /** Stops the server (a fast shutdown: sessions are cut) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Shuts the server down (fast), keeping its data: connections are refused until {@link resume}. */
  pause(): Promise<void>;
  /** Starts the server again on the same port with the same data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** The pid of the server's supervisor (PostgreSQL's processes run below it), while it runs. */
  pid(): number | undefined;
}

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** The superuser's name. Defaults to `postgres`. */
  superuser?: string;
  /**
   * The superuser's password. With one, TCP connections must give it (scram-sha-256), as in the
   * `postgres` container image; without, every connection is trusted.
   */
  password?: string;
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

/** The supervisor that stops a server when its owner exits in any way (also used for the dev server). */
const supervisor = path.join(__dirname, '..', '..', 'src', 'devserver', 'supervise-server.cjs');

/**
 * Starts PostgreSQL in a fresh temporary directory on a free loopback port, trust auth, its unix
 * socket in that directory. As root it runs as the `postgres` user (PostgreSQL refuses root). The
 * server runs in the foreground under the supervisor, so it stops with the test run even when the
 * run is killed; `stop()` shuts it down fast and removes its directory.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const superuser = options.superuser ?? 'postgres';
  const bin = findPostgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolrail-pg-'));
  const data = path.join(dir, 'data');
  // setpriv executes PostgreSQL itself as `postgres` (no process in between to pass signals on).
  const asPostgres = (command: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', path.join(bin, command), ...args]]
      : [path.join(bin, command), args];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  let server: ChildProcess | undefined;
  const shutDown = async (): Promise<void> => {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      // SIGINT is PostgreSQL's fast shutdown; the supervisor passes SIGTERM (a smart shutdown) on.
      spawnSync(...asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']), { stdio: 'ignore' });
      server.stdin?.end();
      await exited;
    }
  };
  const stop = async (): Promise<void> => {
    await shutDown();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const auth = ['--auth=trust'];
    if (options.password !== undefined) {
      const passwordFile = path.join(dir, 'password');
      writeFileSync(passwordFile, `${options.password}\n`);
      if (asRoot) execFileSync('chown', ['postgres:postgres', passwordFile]);
      auth.splice(0, 1, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`);
    }
    execFileSync(...asPostgres('initdb', ['-D', data, '-U', superuser, ...auth, '-E', 'UTF8', '--no-sync']), {
      stdio: 'pipe',
    });
    const port = await freePort();
    const [command, args] = asPostgres('postgres', [
      ...['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-F'],
    ]);
    const start = async (): Promise<void> => {
      server = spawn(process.execPath, [supervisor, command, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
      await readyToAcceptConnections(server);
    };
    await start();
    const credentials =
      options.password === undefined ? superuser : `${superuser}:${encodeURIComponent(options.password)}`;
    return {
      url: `postgres://${credentials}@127.0.0.1:${port}/postgres`,
      port,
      bin,
      restart: async () => {
        await shutDown();
        await start();
      },
      stop,
      pause: shutDown,
      resume: start,
      pid: () => (server?.exitCode === null && server.signalCode === null ? server.pid : undefined),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves when the server logs that it accepts connections; rejects with its log when it exits first. */
function readyToAcceptConnections(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (!log.includes('ready to accept connections')) return;
      server.stderr?.off('data', onData);
      server.stderr?.resume();
      server.off('exit', onExit);
      resolve();
    };
    const onExit = (): void => reject(new Error(`PostgreSQL exited before it accepted connections:\n${log}`));
    server.stderr?.on('data', onData);
    server.once('exit', onExit);
  });
}
