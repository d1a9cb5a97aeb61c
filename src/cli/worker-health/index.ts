/**
 * The worker's health: the file a running worker keeps, and the probe that reads it and asks the
 * server for the worker's pollers (`toolrail worker --health`).
 * @module
 */
export { keepHealthFile, readHealthFile } from './worker-health-file';
export type { WorkerHealthRecord } from './worker-health-file';
export { checkWorkerHealth } from './check-worker-health';
export type { WorkerHealth } from './check-worker-health';
