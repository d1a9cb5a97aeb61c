import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test tiers: `unit` is pure (no server); `integration` and `replay` share one real Temporal dev
 * server that `test/harness/global-setup.ts` starts per run; `e2e` drives the CLI and the Temporal
 * Web UI in a real browser against a server with its UI on; `consumer` packs the package, installs
 * it into a new project and uses it from there as a user would (it starts its own dev server);
 * `store` runs the content stores against a throwaway PostgreSQL that
 * `test/harness/global-setup-postgres.ts` starts; `production` runs docker-compose.yml's stack on
 * this machine (PostgreSQL, the Temporal server built from its Go module, the image's workers) and
 * injects faults into it.
 */
/** `toolrail` resolves to the TypeScript sources in the repository (as tsconfig's `paths` says). */
const resolve = {
  alias: [
    { find: /^toolrail$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    { find: /^toolrail\/client$/, replacement: fileURLToPath(new URL('./src/client-entry.ts', import.meta.url)) },
    { find: /^toolrail\/testing$/, replacement: fileURLToPath(new URL('./src/testing.ts', import.meta.url)) },
    { find: /^toolrail\/ai-sdk$/, replacement: fileURLToPath(new URL('./src/ai-sdk-entry.ts', import.meta.url)) },
    { find: /^toolrail\/workflow$/, replacement: fileURLToPath(new URL('./src/workflow-entry.ts', import.meta.url)) },
  ],
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts'], testTimeout: 20_000 },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/replay/**/*.test.ts'],
          // A PostgreSQL too: the crash test runs with the production content store as well.
          globalSetup: ['test/harness/global-setup.ts', 'test/harness/global-setup-postgres.ts'],
          setupFiles: ['test/harness/quiet-worker-logs.ts', 'test/harness/remove-test-content.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          // One fork runs the files one after another: they share one dev server and two cores.
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        resolve,
        test: {
          name: 'store',
          include: ['test/store/**/*.test.ts'],
          globalSetup: ['test/harness/global-setup-postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/harness/global-setup-with-ui.ts'],
          setupFiles: ['test/harness/quiet-worker-logs.ts', 'test/harness/remove-test-content.ts'],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          // One fork runs the files one after another: they share one dev server and two cores.
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        resolve,
        test: {
          name: 'production',
          include: ['test/production/**/*.test.ts'],
          testTimeout: 600_000,
          // The first run builds the Temporal server from its Go module (minutes; cached afterwards).
          hookTimeout: 1_200_000,
        },
      },
      {
        test: {
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
