import type { ParseArgsConfig } from 'node:util';

/**
 * Connection flags every command that talks to Temporal accepts, named like the `temporal` CLI's.
 * Without flags, the `temporal` CLI's environment variables (`TEMPORAL_ADDRESS`,
 * `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`, `TEMPORAL_TLS_*`, `TEMPORAL_PROFILE`) and its config
 * file profiles apply; the default is the local dev server at `localhost:7233`.
 */
export const connectionFlags = {
  address: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  profile: { type: 'string' },
  'config-file': { type: 'string' },
  'api-key': { type: 'string' },
  tls: { type: 'boolean' },
  'tls-cert-path': { type: 'string' },
  'tls-key-path': { type: 'string' },
  'tls-ca-path': { type: 'string' },
  'tls-server-name': { type: 'string' },
  'task-queue': { type: 'string' },
  'ui-url': { type: 'string' },
  'codec-module': { type: 'string' },
  live: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Values of {@link connectionFlags} after parsing. */
export interface ConnectionFlagValues {
  address?: string | undefined;
  namespace?: string | undefined;
  profile?: string | undefined;
  'config-file'?: string | undefined;
  'api-key'?: string | undefined;
  tls?: boolean | undefined;
  'tls-cert-path'?: string | undefined;
  'tls-key-path'?: string | undefined;
  'tls-ca-path'?: string | undefined;
  'tls-server-name'?: string | undefined;
  'task-queue'?: string | undefined;
  'ui-url'?: string | undefined;
  'codec-module'?: string | undefined;
  live?: string | undefined;
}

/** Help text for {@link connectionFlags}. */
export const connectionFlagsHelp = `Connection (defaults follow the temporal CLI: TEMPORAL_* variables, config profiles, then localhost:7233):
  --address HOST:PORT        Temporal frontend
  --namespace, -n NS         namespace (default: default)
  --profile NAME             profile of the temporal CLI config file (TEMPORAL_PROFILE)
  --config-file PATH         config file (TEMPORAL_CONFIG_FILE)
  --api-key KEY              API key, e.g. for Temporal Cloud (TEMPORAL_API_KEY)
  --tls, --tls-cert-path, --tls-key-path, --tls-ca-path, --tls-server-name
  --task-queue NAME          task queue of toolrail workers (TOOLRAIL_TASK_QUEUE, default: toolrail)
  --ui-url URL               Web UI base, for printed links (TOOLRAIL_UI_URL, default: http://localhost:8233)
  --codec-module FILE        module exporting the workers' payloadCodecs (e.g. encryption), to read and write
                             sessions as the workers do (TOOLRAIL_CODEC_MODULE)
  --live SPEC                the workers' live channel (TOOLRAIL_LIVE): local, local:DIR, postgres://… or off;
                             workers publish on it, follow and send --wait read through it (default: off)`;
