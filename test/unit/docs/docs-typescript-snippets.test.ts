import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { typecheckSnippets, typescriptSnippets } from '../../helpers/typecheck-snippets';

const root = path.resolve(__dirname, '../../..');

/** The guides under docs/ whose TypeScript snippets are compiled (each file's snippets together). */
const guides = ['docs/rolling-out-rules.md'];

describe("the guides' TypeScript snippets", () => {
  for (const guide of guides) {
    it(`typecheck against the public API, importing toolrail: ${guide}`, { timeout: 120_000 }, () => {
      const snippets = typescriptSnippets(readFileSync(path.join(root, guide), 'utf8'));
      expect(snippets.length).toBeGreaterThan(0);
      for (const snippet of snippets) {
        expect(snippet.code).toMatch(/from 'toolrail(\/(testing|workflow|client|ai-sdk))?'/);
        expect(snippet.code).not.toMatch(/from '\.\.?\/src/);
      }
      expect(typecheckSnippets(snippets)).toEqual([]);
    });
  }
});
