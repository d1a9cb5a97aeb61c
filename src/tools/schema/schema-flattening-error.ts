import { ToolrailError } from '../../errors';

/** Raised when a JSON Schema cannot be made portable (recursion, an unresolvable `$ref`, a composed root…). */
export class SchemaFlatteningError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.SCHEMA_NOT_PORTABLE');
  declare readonly code: 'SCHEMA_NOT_PORTABLE';
  /** JSON Pointer-like location of the problem, `#` for the root. */
  readonly at: string;

  constructor({ at, problem }: { at: string; problem: string }) {
    super({ code: 'SCHEMA_NOT_PORTABLE', message: `${problem} (at ${at})` });
    this.name = 'SchemaFlatteningError';
    this.at = at;
  }
}
