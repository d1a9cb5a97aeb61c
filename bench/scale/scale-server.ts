import { startDevServer } from '../../src/devserver/start-dev-server';
import { startProductionStack } from '../../test/harness/stack/start-stack';
import { findProcess, processTreeCpuMs } from './process-stats';

/**
 * The Temporal server a scale run's sessions run on (`TOOLRAIL_BENCH_SCALE_SERVER`): `dev`, the
 * default, a dev server of the run's own (`temporal server start-dev`, its SQLite store in memory);
 * `stack`, docker-compose.yml's production tier as the stack tests start it (the Temporal server of
 * `.env.example`'s version, built from its Go module, on PostgreSQL).
 */
export type ScaleServerKind = 'dev' | 'stack';

/** A running server of a scale run. */
export interface ScaleServer {
  /** What it is, for the run's first line. */
  readonly description: string;
  /** `host:port` of its frontend. */
  readonly address: string;
  readonly namespace: string;
  /** CPU time (ms) of its processes so far, PostgreSQL's included on the stack; `undefined` where it cannot be read. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

/** Reads `TOOLRAIL_BENCH_SCALE_SERVER` (`dev` when unset); throws on any other value. */
export function scaleServerKind(value: string | undefined): ScaleServerKind {
  if (value === undefined || value === '' || value === 'dev') return 'dev';
  if (value === 'stack') return 'stack';
  throw new Error(`TOOLRAIL_BENCH_SCALE_SERVER=${value}: use dev (a dev server, the default) or stack (PostgreSQL)`);
}

/** Starts the server of `kind` and resolves once it answers. */
export async function startScaleServer(kind: ScaleServerKind): Promise<ScaleServer> {
  if (kind === 'stack') {
    const stack = await startProductionStack();
    return {
      description: `the production stack's Temporal server on PostgreSQL ${stack.postgresVersion}`,
      address: stack.temporalAddress,
      namespace: stack.namespace,
      cpuMs: () => processTreeCpuMs(stack.serverProcessIds()),
      stop: () => stack.stop(),
    };
  }
  const server = await startDevServer({ ui: false });
  const [host, port] = server.address.split(':');
  const pid = findProcess(['server', 'start-dev', '--ip', host ?? '', '--port', port ?? '']);
  return {
    description: 'local dev server',
    address: server.address,
    namespace: server.namespace,
    cpuMs: () => (pid === undefined ? undefined : processTreeCpuMs([pid])),
    stop: () => server.stop(),
  };
}
