import { describe, expect, it } from 'vitest';
import { lintAs } from '../helpers/lint-as';

const boundaryRule = 'import-x/no-restricted-paths';

// Type-aware ESLint builds a TypeScript program first: allow it time on a loaded machine.
describe('the import-boundary lint', { timeout: 120_000 }, () => {
  it("refuses an import of another part's internal module", async () => {
    const code =
      "import { prepareToolCall } from '../tools/lifecycle/prepare-tool-call';\nexport const x = prepareToolCall;\n";
    expect(await lintAs('src/worker/worker-module.ts', code)).toContain(boundaryRule);
  });

  it("accepts the same import through the part's index", async () => {
    const code = "import { prepareToolCall } from '../tools';\nexport const x = prepareToolCall;\n";
    expect(await lintAs('src/worker/worker-module.ts', code)).toEqual([]);
  });

  it('refuses internals from workflows/, activities/ and the package root too', async () => {
    const workflow =
      "import type { SessionInput } from '../src/session/session-input';\nexport type X = SessionInput;\n";
    expect(await lintAs('workflows/batch.ts', workflow)).toContain(boundaryRule);
    const activity = "import { ModelError } from '../src/models/model-error';\nexport const x = ModelError;\n";
    expect(await lintAs('activities/report-late-tool-end.ts', activity)).toContain(boundaryRule);
    const packageRoot = "export { createWorker } from './worker/create-worker';\n";
    expect(await lintAs('src/testing.ts', packageRoot)).toContain(boundaryRule);
  });

  it('refuses a part that the importing part may not import, even through its index', async () => {
    const code = "import { ToolRegistry } from '../tools';\nexport const x = ToolRegistry;\n";
    expect(await lintAs('src/models/model-error.ts', code)).toContain(boundaryRule);
  });

  it('lets a part import its own internals', async () => {
    const code = "import { partitionCalls } from './partition-calls';\nexport const x = partitionCalls;\n";
    expect(await lintAs('src/dispatch/approval-reason.ts', code)).toEqual([]);
  });

  it('lets workflow code import only types from a Node-side part', async () => {
    const types = "import type { SessionActivities } from '../activities';\nexport type X = SessionActivities;\n";
    expect(await lintAs('workflows/batch.ts', types)).toEqual([]);
    const value =
      "import { createSessionActivities } from '../activities';\nexport const x = createSessionActivities;\n";
    expect(await lintAs('workflows/batch.ts', value)).toContain('no-restricted-imports');
  });

  it('sees the .ts files it resolves: an import cycle is refused', async () => {
    const code = "import { ToolrailError } from './index';\nexport const x = ToolrailError;\n";
    expect(await lintAs('src/errors/unreadable-claim.ts', code)).toContain('import-x/no-cycle');
  });
});
