/**
 * The candidate closest to `name`, case-insensitively: candidates that contain it (or that it
 * contains) first, then the smallest edit distance. For "did you mean" suggestions.
 */
export function nearestName(name: string, candidates: readonly string[]): string {
  const wanted = name.toLowerCase();
  const related = candidates.filter((candidate) => {
    const lower = candidate.toLowerCase();
    return lower.includes(wanted) || wanted.includes(lower);
  });
  let best = candidates[0] ?? '';
  let bestDistance = Infinity;
  for (const candidate of related.length > 0 ? related : candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
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
