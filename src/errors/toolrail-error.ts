/** Options every {@link ToolrailError} takes. */
export interface ToolrailErrorOptions {
  /** The stable code: it ends up in Temporal histories, so it never changes once released. */
  readonly code: string;
  readonly message: string;
  readonly cause?: unknown;
}

/** What `isInstance` needs of a class: its brand and the instance type. */
interface BrandedErrorClass<T> {
  readonly brand: symbol;
  readonly prototype: T;
}

/**
 * The base of every toolrail error: a stable `code`, and a static `isInstance` that recognises
 * instances across module copies and V8 realms (the workflow sandbox), where `instanceof` fails.
 * Each subclass declares its own `static override readonly brand = Symbol.for('toolrail.error.<CODE>')`;
 * an instance carries the brand of its class and of every ancestor, so `ToolrailError.isInstance`
 * recognises them all.
 */
export class ToolrailError extends Error {
  /** The marker of this class; `Symbol.for`, so every copy of the module shares it. */
  static readonly brand: symbol = Symbol.for('toolrail.error');
  readonly code: string;

  constructor({ code, message, cause }: ToolrailErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    for (let type: unknown = new.target; isBrandedClass(type); type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'brand')) Object.defineProperty(this, type.brand, { value: true });
    }
  }

  /** Cross-realm safe `instanceof`: `ModelError.isInstance(error)` narrows `error` to a `ModelError`. */
  static isInstance<T>(this: BrandedErrorClass<T>, error: unknown): error is T {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[this.brand] === true;
  }
}

function isBrandedClass(value: unknown): value is { readonly brand: symbol } {
  return typeof value === 'function' && typeof (value as { brand?: unknown }).brand === 'symbol';
}
