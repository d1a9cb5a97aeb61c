/**
 * What the policy decided for one call of a step: `run` (allowed, runs now), `deferred` (judged when
 * it runs, after the earlier calls it depends on), `waiting` (for a human's approval, in a later
 * request), `client` (a tool without `execute`: its result comes in a later request), `provider`
 * (the provider runs it; its result comes with the step), `refused` (the rules refused it) or `held`
 * (it came after a call whose outcome comes in a later request).
 */
export type LedgerEntryKind = 'run' | 'deferred' | 'waiting' | 'client' | 'provider' | 'refused' | 'held';

/** One call of a step, in call order. */
export interface LedgerEntry {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly kind: LedgerEntryKind;
  /** Resolves once the call is recorded, refused, or known not to run in this request. */
  readonly settled: Promise<void>;
  /** Whether `settled` has resolved. */
  readonly isSettled: boolean;
}

interface OpenEntry extends LedgerEntry {
  isSettled: boolean;
  settle(): void;
}

/** Kinds whose outcome does not come in this request: nothing after them may run before it does. */
const laterKinds: ReadonlySet<LedgerEntryKind> = new Set(['waiting', 'client']);
/** Kinds that settle at once: they never run in this request. */
const settledKinds: ReadonlySet<LedgerEntryKind> = new Set(['waiting', 'client', 'provider', 'refused', 'held']);

/**
 * The calls of one step (one model response, or the approved calls a request resumes) in the order
 * the loop proposed them, so that each is judged and recorded as if the calls ran one after another:
 * a call waits for the earlier ones it depends on, and every outcome is recorded in call order.
 */
export class StepLedger {
  private readonly entries: OpenEntry[] = [];
  private readonly byCallId = new Map<string, OpenEntry>();

  /** Whether this step holds the approved calls a request resumes (not a model response). */
  constructor(readonly resumed: boolean) {}

  /** Adds the next call of the step. */
  add(call: { callId: string; tool: string; args: unknown }, kind: LedgerEntryKind): LedgerEntry {
    let settle = (): void => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const entry: OpenEntry = {
      ...call,
      kind,
      settled,
      isSettled: false,
      settle: () => {
        entry.isSettled = true;
        settle();
      },
    };
    this.entries.push(entry);
    this.byCallId.set(call.callId, entry);
    if (settledKinds.has(kind)) entry.settle();
    return entry;
  }

  /** The entry of a call, if the step has it. */
  get(callId: string): LedgerEntry | undefined {
    return this.byCallId.get(callId);
  }

  /** The calls so far whose outcome comes in a later request (a human's decision, a browser-run tool). */
  later(): LedgerEntry[] {
    return this.entries.filter((entry) => laterKinds.has(entry.kind));
  }

  /** The calls so far that are still to run or be recorded. */
  unsettled(): LedgerEntry[] {
    return this.entries.filter((entry) => !entry.isSettled);
  }

  /**
   * Resolves once every call before `callId` has settled (all of them when `callId` is not in the
   * step); rejects when `abortSignal` aborts first.
   */
  async earlierSettled(callId: string, abortSignal?: AbortSignal): Promise<void> {
    const index = this.entries.findIndex((entry) => entry.callId === callId);
    const earlier = Promise.all(
      (index < 0 ? this.entries : this.entries.slice(0, index)).map((entry) => entry.settled),
    );
    if (abortSignal === undefined) return void (await earlier);
    abortSignal.throwIfAborted();
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortSignal.reason instanceof Error ? abortSignal.reason : new Error('aborted'));
      abortSignal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([earlier, aborted]);
    } finally {
      abortSignal.removeEventListener('abort', onAbort);
    }
  }

  /** Marks a call settled. */
  settle(callId: string): void {
    this.byCallId.get(callId)?.settle();
  }

  /** Settles every call: the step is over, nothing still waiting in it may hold the next one. */
  close(): void {
    for (const entry of this.entries) entry.settle();
  }
}
