import path from 'node:path';
import type { LiveChannel } from './live-channel';
import { LiveChannelError } from './live-channel-error';
import { LocalLiveChannel } from './local-live-channel';
import { PostgresLiveChannel } from './postgres-live-channel';

/** Environment variable naming the live channel when no spec is given. */
export const liveChannelEnv = 'TOOLRAIL_LIVE';

/** Options of {@link openLiveChannel}. */
export interface OpenLiveChannelOptions {
  /** Told about problems the channel works around (see each channel); defaults to none. */
  onError?: (error: Error) => void;
}

/**
 * Opens the live channel named by `spec`, or `undefined` for none:
 * - `local`: a {@link LocalLiveChannel} in its default directory; `local:DIR` in `DIR`;
 * - `postgres://…` or `postgresql://…`: a {@link PostgresLiveChannel};
 * - `off`, or undefined and empty: none (`$TOOLRAIL_LIVE` when `spec` is undefined).
 * Throws a {@link LiveChannelError} `INVALID_LIVE_CHANNEL` for anything else (showing only its scheme).
 */
export function openLiveChannel(spec?: string, { onError }: OpenLiveChannelOptions = {}): LiveChannel | undefined {
  const chosen = (spec ?? process.env[liveChannelEnv] ?? '').trim();
  if (chosen === '' || chosen === 'off') return undefined;
  const options = onError ? { onError } : {};
  if (chosen === 'local') return new LocalLiveChannel(options);
  if (chosen.startsWith('local:')) {
    const directory = chosen.slice('local:'.length);
    if (directory === '') throw invalid(chosen);
    return new LocalLiveChannel({ directory: path.resolve(directory), ...options });
  }
  if (/^postgres(ql)?:\/\//i.test(chosen)) return new PostgresLiveChannel({ connectionString: chosen, ...options });
  throw invalid(chosen);
}

function invalid(spec: string): LiveChannelError {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(spec)?.[0] ?? spec.slice(0, 20);
  return new LiveChannelError(
    'INVALID_LIVE_CHANNEL',
    `live channel ${JSON.stringify(scheme)}… is not supported: use local, local:DIRECTORY, postgres://user@host/db or off (set ${liveChannelEnv} or pass --live)`,
  );
}
