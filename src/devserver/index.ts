/**
 * The local Temporal dev server: finding or building the Temporal CLI and supervising it (Node side).
 * @module
 */
export { findTemporalCli } from './find-temporal-cli';
export { freePort, isPortFree } from './free-port';
export { startDevServer } from './start-dev-server';
export type { DevServer, StartDevServerOptions } from './start-dev-server';
export { TemporalCliNotFoundError } from './temporal-cli-not-found-error';
