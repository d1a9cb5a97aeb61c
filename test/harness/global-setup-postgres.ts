import type { TestProject } from 'vitest/node';
import { startPostgres } from './start-postgres';

import './provided-context';

/** Starts one throwaway PostgreSQL for the `store` project; stops it and removes its files afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
