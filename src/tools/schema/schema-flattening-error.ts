const marker = Symbol.for('toolrail.error.SCHEMA_NOT_PORTABLE');

/** Raised when a JSON Schema cannot be made portable (recursion, an unresolvable `$ref`, a composed root…). */
export class SchemaFlatteningError extends Error {
  readonly code = 'SCHEMA_NOT_PORTABLE';
  readonly [marker] = true;
  /** JSON Pointer-like location of the problem, `#` for the root. */
  readonly at: string;

  constructor({ at, problem }: { at: string; problem: string }) {
    super(`${problem} (at ${at})`);
    this.name = 'SchemaFlatteningError';
    this.at = at;
  }

  static isInstance(error: unknown): error is SchemaFlatteningError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
