/** Activities of the smoke workflow. */
export interface SmokeActivities {
  greet(name: string): Promise<string>;
}

/** Builds the smoke workflow's activities. */
export function createSmokeActivities(): SmokeActivities {
  return {
    greet: (name) => Promise.resolve(`Hello, ${name}!`),
  };
}
