import { RuleFormat } from '../rule-format';
import { detectFormat } from './detect-format';
import { importAgentDock } from './import-agentdock';
import { importContract } from './import-contracts';
import type { ImportResult } from './import-result';
import { importLetta } from './import-letta';
import { importToolGraph } from './import-tool-graph';
import { importToolrail } from './import-toolrail';
import type { ParsedSource } from './source-locator';

/** Imports one parsed file in the given format, or the one {@link detectFormat} recognises (`auto`). */
export function importRules(source: ParsedSource, format: RuleFormat | 'auto' = 'auto'): ImportResult {
  const chosen = format === 'auto' ? detectFormat(source.value) : format;
  switch (chosen) {
    case 'toolrail':
      return importToolrail(source);
    case 'letta':
      return importLetta(source);
    case 'agentdock':
      return importAgentDock(source);
    case 'contracts':
      return importContract(source);
    case 'graph':
      return importToolGraph(source);
    case null:
      return {
        ok: false,
        errors: [
          {
            severity: 'error',
            code: 'unknown-format',
            file: source.file,
            path: '',
            problem: 'cannot tell which rules format this file is in',
            fix: `pass --format ${Object.values(RuleFormat).join('|')}, or see docs/rules.md for what each looks like`,
          },
        ],
        warnings: [],
      };
    default:
      return unknownFormat(chosen);
  }
}

function unknownFormat(format: never): never {
  throw new Error(`no importer for rules format ${JSON.stringify(format)}`);
}
