/**
 * `npm run provision` (beside the Go builds): makes the Python environment the other-client tests
 * drive sessions from (Python temporalio from PyPI) in toolrail's per-user cache, once. Prints where it is.
 */
import { ensurePythonTemporalio } from './python-temporalio';

ensurePythonTemporalio((line) => process.stderr.write(`${line}\n`)).then(
  (python) => process.stdout.write(`Python with temporalio for the other-client tests: ${python}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
