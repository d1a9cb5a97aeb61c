import { readFileSync } from 'node:fs';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { ConnectionFlagValues } from './connection-flags';

/** Everything needed to connect a client or a worker, resolved from flags, environment and profiles. */
export interface ResolvedConnection {
  address: string;
  namespace: string;
  apiKey?: string;
  tls?:
    | { serverNameOverride?: string; serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer } }
    | true;
  metadata?: Record<string, string>;
  taskQueue: string;
  uiUrl: string;
}

/**
 * Resolves connection settings like the `temporal` CLI: explicit flags win, then `TEMPORAL_*`
 * environment variables and the selected config-file profile (via `@temporalio/envconfig`), then
 * the local dev server defaults.
 */
export function resolveConnection(
  flags: ConnectionFlagValues,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConnection {
  const configFile = flags['config-file'] ?? env.TEMPORAL_CONFIG_FILE;
  const profile = loadClientConnectConfig({
    ...(flags.profile ? { profile: flags.profile } : {}),
    ...(configFile ? { configSource: { path: configFile } } : {}),
    overrideEnvVars: Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  });
  const options = profile.connectionOptions;
  const apiKey = flags['api-key'] ?? (typeof options.apiKey === 'string' ? options.apiKey : undefined);
  const tls = resolveTls(flags, options.tls);
  return {
    address: flags.address ?? options.address ?? 'localhost:7233',
    namespace: flags.namespace ?? profile.namespace ?? 'default',
    ...(apiKey ? { apiKey } : {}),
    ...(tls !== undefined ? { tls } : apiKey ? { tls: true as const } : {}),
    ...(options.metadata ? { metadata: options.metadata as Record<string, string> } : {}),
    taskQueue: flags['task-queue'] ?? env.TOOLRAIL_TASK_QUEUE ?? 'toolrail',
    uiUrl: (flags['ui-url'] ?? env.TOOLRAIL_UI_URL ?? 'http://localhost:8233').replace(/\/$/, ''),
  };
}

function resolveTls(flags: ConnectionFlagValues, fromProfile: unknown): ResolvedConnection['tls'] | undefined {
  const certPath = flags['tls-cert-path'];
  const keyPath = flags['tls-key-path'];
  const caPath = flags['tls-ca-path'];
  if (flags.tls || certPath || keyPath || caPath || flags['tls-server-name']) {
    return {
      ...(flags['tls-server-name'] ? { serverNameOverride: flags['tls-server-name'] } : {}),
      ...(caPath ? { serverRootCACertificate: readFileSync(caPath) } : {}),
      ...(certPath && keyPath ? { clientCertPair: { crt: readFileSync(certPath), key: readFileSync(keyPath) } } : {}),
    };
  }
  if (fromProfile === true) return true;
  if (typeof fromProfile === 'object' && fromProfile !== null) return fromProfile;
  return undefined;
}
