import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** A `/proc/…/stat` line read: the thread's (or process's) name and its CPU time (user + system) in ms. */
function readStat(file: string): { name: string; cpuMs: number } {
  const stat = readFileSync(file, 'utf8');
  const fields = fieldsAfterName(stat);
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks(),
  };
}

/**
 * A `/proc/…/stat` line's fields after the process's name (which may hold spaces), from its state
 * on: [1] the parent's pid; [11] and [12] user and system time, [13] and [14] those of its children
 * that ended and were waited for, in clock ticks.
 */
function fieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The kernel's clock ticks per second, the unit of `/proc/…/stat`'s CPU times. */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * CPU time (user + system, ms) of processes `pids` and every process below them so far, the ones
 * that ended and were waited for included (their time is in their parent's children's time);
 * `undefined` where `/proc` is not readable or none of them runs. A dev server is one process; the
 * production stack's servers are trees: the Temporal server under its supervisor, PostgreSQL's
 * postmaster and its backends under theirs.
 */
export function processTreeCpuMs(pids: readonly number[]): number | undefined {
  const processes: { pid: number; parent: number; cpuMs: number }[] = [];
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = fieldsAfterName(readFileSync(`/proc/${entry}/stat`, 'utf8'));
        const ticks = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0);
        processes.push({ pid: Number(entry), parent: Number(fields[1]), cpuMs: (ticks * 1000) / clockTicks() });
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    return undefined;
  }
  const inTree = new Set(pids);
  // Parents are listed before their children nearly always; repeat until no process joins.
  for (let grown = true; grown;) {
    grown = false;
    for (const { pid, parent } of processes) {
      if (inTree.has(pid) || !inTree.has(parent)) continue;
      inTree.add(pid);
      grown = true;
    }
  }
  const found = processes.filter(({ pid }) => inTree.has(pid));
  return found.length === 0 ? undefined : found.reduce((sum, { cpuMs }) => sum + cpuMs, 0);
}

/**
 * CPU time (user + system, ms) of process `pid` so far by what its threads do: `main` (the event
 * loop: activities and the SDK's JavaScript), `workflow` (Node's worker threads, where the workflows
 * run), `V8 helpers` (the collector's and compiler's threads), `SDK core` (the Temporal SDK's Rust
 * threads) and `other`; `undefined` where `/proc` is not readable. Exited threads are not counted.
 */
export function threadCpuMs(pid: number): Map<string, number> | undefined {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const byKind = new Map<string, number>();
  for (const thread of threads) {
    try {
      const { name, cpuMs } = readStat(`/proc/${pid}/task/${thread}/stat`);
      // The main thread's id is the process's, whatever its name.
      const kind = thread === String(pid) ? 'main' : threadKind(name);
      byKind.set(kind, (byKind.get(kind) ?? 0) + cpuMs);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byKind;
}

/** What a Node worker's thread does, by its name (`MainThread`, `WorkerThread`, `V8Worker`, `tokio-runtime-w`…). */
export function threadKind(name: string): string {
  if (name === 'MainThread' || name === 'node') return 'main';
  if (name.startsWith('WorkerThread')) return 'workflow';
  if (name.startsWith('V8Worker')) return 'V8 helpers';
  if (name.startsWith('tokio-') || name.startsWith('workflow-proces') || name.startsWith('temporal')) return 'SDK core';
  return 'other';
}

/** The process whose command line (after the executable) starts with `parts`, e.g. the dev server on a port, or `undefined`. */
export function findProcess(parts: readonly string[]): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (parts.every((part, index) => argv[index + 1] === part)) return Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return undefined;
}

/**
 * Time (ms) the machine's cores have spent so far busy or waiting for the disk, summed over the
 * cores (the first line of `/proc/stat`: all but idle); `undefined` where it is not readable.
 */
export function machineBusyMs(): number | undefined {
  try {
    const [label, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/) ?? [];
    if (label !== 'cpu') return undefined;
    // user nice system idle iowait irq softirq steal …: everything but idle (the fourth).
    const busy = ticks.slice(0, 8).reduce((sum, value, index) => (index === 3 ? sum : sum + Number(value)), 0);
    return (busy * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** The machine's 1-minute load average as `uptime` shows it, with the core count. */
export function loadLine(): string {
  try {
    const [one, five, fifteen] = readFileSync('/proc/loadavg', 'utf8').split(' ');
    return `load average ${one}, ${five}, ${fifteen}`;
  } catch {
    return 'load average unknown';
  }
}

/**
 * Resolves once a server (or the machine) is nearly idle: `cpuMs` (its CPU time so far, ms) grows
 * by under `idleMsPerSecond` in each of two consecutive seconds (or after `maxMs`). The scale
 * benchmark waits so before each measured round, so that what the server still does for the round
 * before it (timers of its activities firing, visibility writes), or the machine for an earlier run,
 * is not counted against the next one. Returns how long it waited, in ms.
 */
export async function untilIdle(
  cpuMs: () => number | undefined,
  { idleMsPerSecond = 50, maxMs = 90_000 } = {},
): Promise<number> {
  const started = Date.now();
  let quietSeconds = 0;
  while (quietSeconds < 2 && Date.now() - started < maxMs) {
    const before = cpuMs();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = cpuMs();
    if (before === undefined || after === undefined) return Date.now() - started;
    quietSeconds = after - before < idleMsPerSecond ? quietSeconds + 1 : 0;
  }
  return Date.now() - started;
}

/** How fast `cpuMs` (CPU time so far, ms) grows over the next `overMs`, in ms per second; `undefined` where unreadable. */
export async function cpuRate(cpuMs: () => number | undefined, overMs: number): Promise<number | undefined> {
  const before = cpuMs();
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, overMs));
  const after = cpuMs();
  return before === undefined || after === undefined ? undefined : ((after - before) * 1_000) / (Date.now() - started);
}
