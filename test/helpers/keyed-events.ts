/**
 * Promises keyed by name that tests await and helpers resolve: "call_0_1 started", "turn 2 aborted".
 * Waiting before or after the event happens both work.
 */
export class KeyedEvents<T> {
  readonly #entries = new Map<string, { promise: Promise<T>; resolve: (value: T) => void; settled: boolean }>();

  /** Resolves when `key` happened (at once if it already did). */
  when(key: string): Promise<T> {
    return this.#entry(key).promise;
  }

  /** Whether `key` happened. */
  has(key: string): boolean {
    return this.#entries.get(key)?.settled ?? false;
  }

  /** Marks `key` as happened with `value`; later calls for the same key are ignored. */
  emit(key: string, value: T): void {
    const entry = this.#entry(key);
    if (entry.settled) return;
    entry.settled = true;
    entry.resolve(value);
  }

  #entry(key: string) {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      let resolve: (value: T) => void = () => undefined;
      const promise = new Promise<T>((done) => {
        resolve = done;
      });
      entry = { promise, resolve, settled: false };
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
