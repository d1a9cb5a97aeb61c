import { setTimeout as sleep } from 'node:timers/promises';

/** Activities of the plain baseline workflows. */
export interface PlainActivities {
  noop(index: number): Promise<number>;
  wait(delayMs: number): Promise<number>;
  /** Stands in for a model call: returns at once. */
  think(turn: number): Promise<number>;
}

/** Builds the plain baseline's activities. */
export function createPlainActivities(): PlainActivities {
  return {
    noop: (index) => Promise.resolve(index),
    wait: async (delayMs) => {
      await sleep(delayMs);
      return delayMs;
    },
    think: (turn) => Promise.resolve(turn),
  };
}
