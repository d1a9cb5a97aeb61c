/**
 * The candidate closest to `name` for a "did you mean" hint, or `undefined` when none is close:
 * the same name in another case or spelling convention (`first_message` → `firstMessage`), else
 * the candidate at the smallest edit distance, if that distance is at most a third of the name's
 * length (at least 2). Deterministic: runs in the workflow sandbox.
 */
export function suggestName(name: string, candidates: Iterable<string>): string | undefined {
  const all = [...candidates];
  const folded = foldName(name);
  const sameWord = all.find((candidate) => foldName(candidate) === folded);
  if (sameWord !== undefined) return sameWord;
  const nearest = nearestName(name, all);
  if (nearest === '') return undefined;
  const distance = editDistance(folded, foldName(nearest));
  return distance <= Math.max(2, Math.floor(folded.length / 3)) ? nearest : undefined;
}

/**
 * The candidate closest to `name`, case-insensitively: candidates that contain it (or that it
 * contains) first, then the smallest edit distance, ties to the first; `''` when there is none.
 */
export function nearestName(name: string, candidates: Iterable<string>): string {
  const all = [...candidates];
  const wanted = name.toLowerCase();
  const related = all.filter((candidate) => {
    const lower = candidate.toLowerCase();
    return lower.includes(wanted) || wanted.includes(lower);
  });
  let best = all[0] ?? '';
  let bestDistance = Infinity;
  for (const candidate of related.length > 0 ? related : all) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** `first_message`, `First-Message` and `firstMessage` all fold to `firstmessage`. */
function foldName(name: string): string {
  return name.replace(/[-_\s]/g, '').toLowerCase();
}

/** Levenshtein distance: the fewest single-character insertions, deletions or substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
