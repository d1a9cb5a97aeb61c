/**
 * Runs an author's per-call classifier fail-closed: its answer when it returns a boolean, `unsafe`
 * when it throws or returns anything else, `fallback` when there is none.
 */
export function judgeCall<INPUT>(
  classifier: ((input: INPUT) => boolean) | undefined,
  input: INPUT,
  { fallback, unsafe }: { fallback: boolean; unsafe: boolean },
): boolean {
  if (classifier === undefined) return fallback;
  try {
    const answer: unknown = classifier(input);
    return typeof answer === 'boolean' ? answer : unsafe;
  } catch {
    return unsafe;
  }
}
