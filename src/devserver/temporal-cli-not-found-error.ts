import { ToolrailError } from '../errors';

/** Raised when no `temporal` CLI could be found, built or downloaded; says what was tried and how to fix it. */
export class TemporalCliNotFoundError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.TEMPORAL_CLI_NOT_FOUND');
  declare readonly code: 'TEMPORAL_CLI_NOT_FOUND';
  readonly attempts: readonly string[];

  constructor({ attempts }: { attempts: readonly string[] }) {
    super({
      code: 'TEMPORAL_CLI_NOT_FOUND',
      message: [
        'Could not find or build the Temporal CLI. Tried, in order:',
        ...attempts.map((attempt) => `  - ${attempt}`),
        'Fix it in one of these ways:',
        '  - set TEMPORAL_CLI_PATH to an existing `temporal` binary;',
        '  - install Go (https://go.dev/dl/) so toolrail can build the CLI once into its cache;',
        '  - install the Temporal CLI (https://docs.temporal.io/cli) so `temporal` is on PATH.',
      ].join('\n'),
    });
    this.name = 'TemporalCliNotFoundError';
    this.attempts = attempts;
  }
}
