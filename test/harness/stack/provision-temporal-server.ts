/**
 * `npm run provision` (after the CLI): builds the Temporal server and its SQL tool at the version
 * docker-compose.yml runs (.env.example's TEMPORAL_VERSION) into toolrail's per-user cache, once,
 * so the production test tier finds them there. Prints where they are.
 */
import { readStackDefinition } from './stack-definition';
import { findTemporalServerBinaries } from './temporal-server-binaries';

const version = readStackDefinition().env.TEMPORAL_VERSION ?? '';
findTemporalServerBinaries(version, { onProgress: (line) => process.stderr.write(`${line}\n`) }).then(
  ({ directory }) => process.stdout.write(`Temporal server v${version} and its SQL tool: ${directory}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
